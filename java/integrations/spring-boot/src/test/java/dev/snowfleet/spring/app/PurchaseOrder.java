package dev.snowfleet.spring.app;

import dev.snowfleet.hibernate.SnowflakeId;
import dev.snowfleet.jackson.IdAsString;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order: its key minted by the process's generator at persist, written as a JSON string. */
@Entity
@Table(name = "orders")
public class PurchaseOrder {
    @Id
    @SnowflakeId
    private Long id;

    @IdAsString
    private Long customerId;

    private String note;

    public Long getId() { return id; }
    public void setId(Long id) { this.id = id; }
    public Long getCustomerId() { return customerId; }
    public void setCustomerId(Long customerId) { this.customerId = customerId; }
    public String getNote() { return note; }
    public void setNote(String note) { this.note = note; }
}
