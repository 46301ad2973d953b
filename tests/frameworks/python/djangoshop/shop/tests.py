"""Run by `manage.py test` from tests/frameworks/python/test_django.py, against PostgreSQL and
SQLite: snowflake primary keys through the ORM, a foreign key, the admin and a JSON view."""

import io
import json
import os
import tempfile
from pathlib import Path

import snowfleet
from django.contrib.auth.models import User
from django.core.management import call_command
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

    def test_the_admin_takes_a_foreign_key_typed_as_its_id(self):
        User.objects.create_superuser("admin", "a@example.com", "pw")
        self.client.login(username="admin", password="pw")
        ada = Customer.objects.create(name="ada")
        added = self.client.post("/admin/shop/order/add/", {"customer": str(ada.pk), "note": "raw"})
        self.assertEqual(added.status_code, 302, added.content[:3000])
        order = Order.objects.get(note="raw")
        self.assertEqual(order.customer_id, ada.pk)
        page = self.client.get(f"/admin/shop/order/{order.pk}/change/").content.decode()
        self.assertIn(f'value="{ada.pk}"', page)


class ManyRows(TestCase):
    def test_bulk_create_mints_each_row(self):
        c = Customer.objects.create(name="bulk")
        made = Order.objects.bulk_create([Order(customer=c, note=str(i)) for i in range(5)] +
                                         [Order(id=None, customer=c, note="none")])
        ids = [o.pk for o in made]
        self.assertEqual(len(set(ids)), 6, ids)
        self.assertEqual({snowfleet.decode(i).node_id for i in ids}, {21})
        self.assertEqual(sorted(Order.objects.values_list("pk", flat=True)), sorted(ids))
        self.assertEqual(len(set(Order.objects.values_list("tracking", flat=True))), 6)

    def test_dumpdata_and_loaddata_keep_the_ids(self):
        c = Customer.objects.create(name="dump")
        Order.objects.create(id=MAX_ID, tracking=MAX_ID - 1, customer=c, note="max")
        out = io.StringIO()
        call_command("dumpdata", "shop", format="json", stdout=out)
        Order.objects.all().delete()
        Customer.objects.all().delete()
        with tempfile.NamedTemporaryFile("w", suffix=".json") as fixture:
            fixture.write(out.getvalue())
            fixture.flush()
            call_command("loaddata", fixture.name, verbosity=0)
        o = Order.objects.get()
        self.assertEqual((o.pk, o.tracking, o.customer_id), (MAX_ID, MAX_ID - 1, c.pk))

    def test_a_fixture_without_keys_gets_minted_ones(self):
        rows = [{"model": "shop.customer", "fields": {"name": "no key"}},
                {"model": "shop.customer", "pk": None, "fields": {"name": "null key"}}]
        with tempfile.NamedTemporaryFile("w", suffix=".json") as fixture:
            json.dump(rows, fixture)
            fixture.flush()
            call_command("loaddata", fixture.name, verbosity=0)
        keys = list(Customer.objects.values_list("pk", flat=True))
        self.assertEqual(len(set(keys)), 2, keys)
        self.assertEqual({snowfleet.decode(k).node_id for k in keys}, {21})
