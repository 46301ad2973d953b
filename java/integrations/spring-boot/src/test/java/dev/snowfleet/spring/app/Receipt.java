package dev.snowfleet.spring.app;

import dev.snowfleet.hibernate.Uuid7Id;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import java.util.UUID;

/** A receipt keyed by a UUIDv7. */
@Entity
public class Receipt {
    @Id
    @Uuid7Id
    private UUID id;

    private String note;

    public UUID getId() { return id; }
    public String getNote() { return note; }
    public void setNote(String note) { this.note = note; }
}
