from django.contrib import admin

from .models import Customer, Order

admin.site.register(Customer)


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin):
    raw_id_fields = ("customer",)  # the customer typed as its id, with a lookup popup
