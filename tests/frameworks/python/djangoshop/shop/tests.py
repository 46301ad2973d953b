"""Run by `manage.py test` from tests/frameworks/python/test_django.py, against PostgreSQL and
SQLite: snowflake primary keys through the ORM, a foreign key, the admin and a JSON view."""

import os
from pathlib import Path

import snowfleet
from django.contrib.auth.models import User
from django.db import connection
from django.test import TestCase

from .models import Customer, Order

MAX_ID = (1 << 63) - 1


class SnowflakeKeys(TestCase):
    def test_ids_are_minted_at_save_and_stored_unchanged(self):
        c = Customer.objects.create(name="ada")
        orders = [Order.objects.create(customer=c, note=str(i)) for i in range(3)]
        ids = [o.pk for o in orders]
        self.assertEqual(ids, sorted(ids))
        self.assertEqual({snowfleet.decode(i).node_id for i in ids + [c.pk]}, {21})
        self.assertTrue(all(o.tracking > o.pk for o in orders))  # minted after the pk
        top = Order.objects.create(id=MAX_ID, tracking=str(MAX_ID), customer=c)
        with connection.cursor() as cur:
            cur.execute("SELECT CAST(id AS TEXT), CAST(tracking AS TEXT), "
                        "CAST(customer_id AS TEXT) FROM shop_order ORDER BY id")
            rows = cur.fetchall()
        self.assertEqual(rows[-1], (str(MAX_ID), str(MAX_ID), str(c.pk)))
        self.assertEqual([r[0] for r in rows], [str(i) for i in ids] + [str(MAX_ID)])
        self.assertEqual(Order.objects.get(pk=str(MAX_ID)).tracking, MAX_ID)
        self.assertEqual(top.customer.order_set.count(), 4)

    def test_the_admin_adds_and_shows_a_snowflake_keyed_row(self):
        User.objects.create_superuser("admin", "a@example.com", "pw")
        self.client.login(username="admin", password="pw")
        form = self.client.get("/admin/shop/customer/add/").content.decode()
        self.assertNotIn('name="id"', form)  # minted, not typed in
        added = self.client.post("/admin/shop/customer/add/", {"name": "grace"})
        self.assertEqual(added.status_code, 302, added.content[:2000])
        grace = Customer.objects.get(name="grace")
        self.assertEqual(snowfleet.decode(grace.pk).node_id, 21)
        Order.objects.create(id=MAX_ID, customer=grace)
        page = self.client.get(f"/admin/shop/order/{MAX_ID}/change/")
        self.assertEqual(page.status_code, 200)
        self.assertIn(str(grace.pk), page.content.decode())
        listing = self.client.get("/admin/shop/order/").content.decode()
        self.assertIn(f"/admin/shop/order/{MAX_ID}/change/", listing)

    def test_json_carries_ids_as_strings(self):
        c = Customer.objects.create(name="linus")
        Order.objects.create(id=MAX_ID, tracking=MAX_ID - 1, customer=c, note="max")
        body = self.client.get(f"/orders/{MAX_ID}").content.decode()
        self.assertEqual(body, '{"id": "9223372036854775807", "tracking": "9223372036854775806", '
                               f'"customer_id": "{c.pk}", "note": "max"}}')
        self.assertEqual(self.client.get(f"/orders/{MAX_ID + 1}").status_code, 404)
        out = os.environ.get("SNOWFLEET_JSON_OUT")
        if out:  # test_django.py runs the JavaScript client on it
            Path(out).write_text(body)
