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
from typing import Dict

import pytest

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
    assert "Ran 3 tests" in result and "OK" in result, result
    print(js_client_reads((tmp_path / "order.json").read_text(), {"id": MAX_ID, "tracking": MAX_ID - 1}))
