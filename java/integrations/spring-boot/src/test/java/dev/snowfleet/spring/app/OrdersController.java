package dev.snowfleet.spring.app;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** POST /orders persists an order (its id minted by Hibernate); GET /orders/{id} reads it. */
@RestController
public class OrdersController {
    private final OrderRepository orders;

    public OrdersController(OrderRepository orders) {
        this.orders = orders;
    }

    @PostMapping("/orders")
    public PurchaseOrder create(@RequestBody PurchaseOrder order) {
        order.setId(null);
        return orders.save(order);
    }

    @GetMapping("/orders/{id}")
    public PurchaseOrder read(@PathVariable long id) {
        return orders.findById(id).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND));
    }
}
