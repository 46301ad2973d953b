package dev.snowfleet.spring.app;

import dev.snowfleet.hibernate.SnowflakeId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

/** A parcel: its key a primitive long, 0 until Hibernate mints it at persist. */
@Entity
public class Parcel {
    @Id
    @SnowflakeId
    private long id;

    private String note;

    public long getId() { return id; }
    public void setId(long id) { this.id = id; }
    public String getNote() { return note; }
    public void setNote(String note) { this.note = note; }
}
