"""snowfleet.django in a Django project (djangoshop/), on PostgreSQL and on SQLite:
makemigrations writes plain fields (no default, no sequence), migrate creates bigint keys,
and the project's own tests (shop/tests.py: ORM, foreign key, admin, JSON view) pass; the
JSON view's body is read by the JavaScript client."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Optional, Tuple

import pytest
import snowfleet

from conftest import MAX_ID, js_client_reads

PROJECT = Path(__file__).resolve().parent / "djangoshop"


def manage(project: Path, env: Dict[str, str], *args: str) -> str:
    run = subprocess.run([sys.executable, "manage.py", *args], cwd=project, env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0, f"manage.py {' '.join(args)}:\n{run.stdout}\n{run.stderr}"
    return run.stdout + run.stderr


@pytest.mark.parametrize("backend", ["postgresql", "sqlite"])
def test_migrations_admin_and_json(backend: str, tmp_path: Path,
                                   request: pytest.FixtureRequest) -> None:
    project = tmp_path / "djangoshop"
    shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns("__pycache__", "migrations"))
    env = dict(os.environ, SNOWFLEET_DJANGO_DB=backend, SNOWFLEET_SQLITE=str(tmp_path / "db"),
               SNOWFLEET_JSON_OUT=str(tmp_path / "order.json"))
    if backend == "postgresql":
        env["SNOWFLEET_PG_URL"] = request.getfixturevalue("pg_database")

    manage(project, env, "makemigrations", "shop")
    migration = (project / "shop/migrations/0001_initial.py").read_text()
    assert "snowfleet.django.SnowflakeAutoField(primary_key=True, serialize=False)" in migration, migration
    assert "snowfleet.django.SnowflakeField(unique=True)" in migration, migration
    assert "default=" not in migration and "AutoField" not in migration.replace("SnowflakeAutoField", "")
    manage(project, env, "migrate", "--noinput")
    sql = manage(project, env, "sqlmigrate", "shop", "0001")
    assert '"id" bigint NOT NULL PRIMARY KEY' in sql, sql  # no serial, identity or autoincrement
    assert "makemigrations" not in manage(project, env, "makemigrations", "--check", "--dry-run")

    # An order in the migrated database, then the project's tests in Django's test database.
    out = manage(project, env, "shell", "-c",
                 "from shop.models import Customer, Order; c = Customer.objects.create(name='x'); "
                 f"o = Order.objects.create(id={MAX_ID}, customer=c); print(Order.objects.get().pk)")
    assert out.strip().endswith(str(MAX_ID)), out
    result = manage(project, env, "test", "shop", "--noinput", "-v", "2")
    assert "Ran 7 tests" in result and "OK" in result, result
    print(js_client_reads((tmp_path / "order.json").read_text(), {"id": MAX_ID, "tracking": MAX_ID - 1}))


def project_copy(tmp_path: Path, backend: str,
                 request: Optional[pytest.FixtureRequest] = None) -> Tuple[Path, Dict[str, str]]:
    """A copy of djangoshop without migrations, and its environment for the backend."""
    project = tmp_path / "djangoshop"
    shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns("__pycache__", "migrations"))
    env = dict(os.environ, SNOWFLEET_DJANGO_DB=backend, SNOWFLEET_SQLITE=str(tmp_path / "db"))
    if request is not None and backend == "postgresql":
        env["SNOWFLEET_PG_URL"] = request.getfixturevalue("pg_database")
    return project, env


@pytest.mark.parametrize("backend", ["postgresql", "sqlite"])
def test_a_bigautofield_table_with_rows_moves_to_snowflake_keys(backend: str, tmp_path: Path,
                                                               request: pytest.FixtureRequest) -> None:
    project, env = project_copy(tmp_path, backend, request)
    before = dict(env, SNOWFLEET_DEFAULT_AUTO_FIELD="django.db.models.BigAutoField")
    manage(project, before, "makemigrations", "shop")
    manage(project, before, "migrate", "--noinput")
    manage(project, before, "shell", "-c", "from shop.models import Customer; "
           "[Customer.objects.create(name=n) for n in 'ab']")

    manage(project, env, "makemigrations", "shop")  # BigAutoField -> SnowflakeAutoField
    migration = (project / "shop/migrations/0002_alter_customer_id.py").read_text()
    assert "field=snowfleet.django.SnowflakeAutoField(auto_created=True, primary_key=True" in migration, migration
    manage(project, env, "migrate", "--noinput")
    probe = ("from django.db import connection; from shop.models import Customer, Order; "
             "c = Customer.objects.create(name='c'); Order.objects.create(customer=c); "
             "print(sorted(Customer.objects.values_list('pk', flat=True)))\n"
             "with connection.cursor() as cur:\n"
             "    cur.execute(\"SELECT sql FROM sqlite_master WHERE name = 'shop_customer'\" "
             "if connection.vendor == 'sqlite' else \"SELECT is_identity || ' ' || "
             "coalesce(column_default, 'no default') FROM information_schema.columns WHERE "
             "table_name = 'shop_customer' AND column_name = 'id'\")\n"
             "    print(cur.fetchone()[0])")
    keys, column = manage(project, env, "shell", "-c", probe).strip().splitlines()[-2:]
    old1, old2, minted = eval(keys)
    assert (old1, old2) == (1, 2)
    assert snowfleet.decode(minted).node_id == 21
    if backend == "postgresql":
        assert column == "NO no default", column  # the identity is gone
    else:
        assert "AUTOINCREMENT" not in column.upper() and '"id" bigint NOT NULL PRIMARY KEY' in column, column


@pytest.mark.parametrize("options, named", [
    ('{"node_sorce": "static:3"}', "node_sorce"),
    ('["static:3"]', "dict"),
])
def test_a_misspelled_snowfleet_setting_fails_the_checks_naming_it(options: str, named: str,
                                                                  tmp_path: Path) -> None:
    project, env = project_copy(tmp_path, "sqlite")
    env["SNOWFLEET_DJANGO_OPTIONS"] = options
    run = subprocess.run([sys.executable, "manage.py", "check"], cwd=project, env=env,
                         capture_output=True, text=True)
    assert run.returncode != 0, run.stdout + run.stderr
    assert "SNOWFLEET" in run.stderr and named in run.stderr, run.stderr
    # where no checks run (a WSGI server), the first id says the same
    run = subprocess.run([sys.executable, "manage.py", "shell", "-c",
                          "from shop.models import Customer; Customer.objects.create(name='x')"],
                         cwd=project, env=dict(env, DJANGO_SETTINGS_MODULE="djangoshop.settings"),
                         capture_output=True, text=True)
    assert run.returncode != 0
    assert "ImproperlyConfigured" in run.stderr and "SNOWFLEET" in run.stderr and named in run.stderr, run.stderr
