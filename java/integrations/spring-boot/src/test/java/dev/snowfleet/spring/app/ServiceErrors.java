package dev.snowfleet.spring.app;

import dev.snowfleet.ClockMovedBackwardsException;
import dev.snowfleet.LeaseLostException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * A generator that cannot mint right now is a temporary condition of this instance: answer
 * 503 with Retry-After so the client (or the load balancer) retries, on this instance once the
 * clock has caught up, or on another one. Nothing was inserted: the id is minted before the SQL.
 */
@RestControllerAdvice
public class ServiceErrors {
    @ExceptionHandler(ClockMovedBackwardsException.class)
    public ResponseEntity<String> clockBehind(ClockMovedBackwardsException e) {
        long seconds = Math.max(1, (e.driftMs() + 999) / 1000);
        return unavailable(e.getMessage(), seconds);
    }

    @ExceptionHandler(LeaseLostException.class)
    public ResponseEntity<String> leaseLost(LeaseLostException e) {
        return unavailable(e.getMessage(), 1);
    }

    private static ResponseEntity<String> unavailable(String message, long retryAfterSeconds) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds))
                .body(message);
    }
}
