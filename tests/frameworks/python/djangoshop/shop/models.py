from django.db import models

from snowfleet.django import SnowflakeAutoField, SnowflakeField


class Customer(models.Model):  # the primary key comes from DEFAULT_AUTO_FIELD
    name = models.CharField(max_length=40)


class Order(models.Model):
    id = SnowflakeAutoField(primary_key=True)
    tracking = SnowflakeField(unique=True)
    customer = models.ForeignKey(Customer, on_delete=models.CASCADE)
    note = models.CharField(max_length=40, blank=True)
