"""A small Django project whose primary keys are snowfleet ids: DEFAULT_AUTO_FIELD is
SnowflakeAutoField (SNOWFLEET_DEFAULT_AUTO_FIELD names another; SNOWFLEET_DJANGO_OPTIONS is
SNOWFLEET as JSON). The database is PostgreSQL (SNOWFLEET_DJANGO_DB=postgresql, the libpq
URL in SNOWFLEET_PG_URL) or SQLite."""

import json
import os
from urllib.parse import urlsplit

SECRET_KEY = "test-only"
DEBUG = False
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
USE_TZ = True
ROOT_URLCONF = "djangoshop.urls"
DEFAULT_AUTO_FIELD = os.environ.get("SNOWFLEET_DEFAULT_AUTO_FIELD", "snowfleet.django.SnowflakeAutoField")
SNOWFLEET = json.loads(os.environ.get("SNOWFLEET_DJANGO_OPTIONS", "null")) or {
    "node_source": os.environ.get("SNOWFLEET_NODE_SOURCE", "static:21")}

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "shop",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]

if os.environ.get("SNOWFLEET_DJANGO_DB", "sqlite") == "postgresql":
    url = urlsplit(os.environ["SNOWFLEET_PG_URL"])
    DATABASES = {"default": {
        "ENGINE": "django.db.backends.postgresql", "NAME": url.path.lstrip("/"),
        "USER": url.username, "HOST": url.hostname, "PORT": url.port,
    }}
else:
    DATABASES = {"default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("SNOWFLEET_SQLITE", "shop.sqlite3"),
        "TEST": {"NAME": os.environ.get("SNOWFLEET_SQLITE", "shop.sqlite3") + ".test"},
    }}
