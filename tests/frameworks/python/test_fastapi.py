"""snowfleet.pydantic in a FastAPI app over SQLAlchemy and PostgreSQL: ids validated from ints
or decimal text, stored unchanged, served as JSON strings that a JavaScript client reads
exactly (node runs on the response), and typed as strings in the OpenAPI schema."""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import AsyncIterator, Dict, Optional

import pytest
import snowfleet
from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel, ValidationError
from snowfleet.pydantic import SnowflakeId
from snowfleet.sqlalchemy import SnowflakeId as SnowflakeColumn
from sqlalchemy import String, create_engine, text
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from conftest import MAX_ID, js_client_reads


class Base(DeclarativeBase):
    pass


class OrderRow(Base):
    __tablename__ = "orders"
    id: Mapped[int] = mapped_column(SnowflakeColumn, primary_key=True)
    customer_id: Mapped[Optional[int]] = mapped_column(SnowflakeColumn)
    note: Mapped[str] = mapped_column(String(40))


class OrderIn(BaseModel):
    customer_id: SnowflakeId
    note: str = ""


class Order(BaseModel):
    id: SnowflakeId
    customer_id: Optional[SnowflakeId]
    note: str


def make_app(database_url: str) -> FastAPI:
    state: Dict[str, object] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state["ids"] = snowfleet.Generator(node_id=11)  # one generator per process
        state["db"] = create_engine(database_url)
        Base.metadata.create_all(state["db"])  # type: ignore[arg-type]
        yield
        state["ids"].close()  # type: ignore[attr-defined]
        state["db"].dispose()  # type: ignore[attr-defined]

    app = FastAPI(lifespan=lifespan)

    @app.post("/orders", response_model=Order)
    def create(order: OrderIn) -> OrderRow:
        row = OrderRow(id=state["ids"].next_id(), **order.model_dump())  # type: ignore[attr-defined]
        with Session(state["db"], expire_on_commit=False) as session:  # type: ignore[call-overload]
            session.add(row)
            session.commit()
        return row

    @app.get("/orders/{order_id}", response_model=Order)
    def read(order_id: SnowflakeId) -> OrderRow:
        with Session(state["db"]) as session:  # type: ignore[call-overload]
            row = session.get(OrderRow, order_id)
            if row is None:
                raise HTTPException(404, f"no order {order_id}")
            return row

    return app


def test_ids_arrive_in_postgresql_and_in_json_unchanged(pg_database: str) -> None:
    url = pg_database.replace("postgres://", "postgresql+psycopg://", 1)
    with TestClient(make_app(url)) as client:
        made = client.post("/orders", json={"customer_id": str(MAX_ID), "note": "max customer"})
        assert made.status_code == 200, made.text
        order_id = int(made.json()["id"])
        assert snowfleet.decode(order_id).node_id == 11
        js_client_reads(made.text, {"id": order_id, "customer_id": MAX_ID})

        with create_engine(url).connect() as conn:
            conn.execute(text("INSERT INTO orders VALUES (9223372036854775807, 1, 'max id')"))
            conn.commit()
            stored = conn.execute(text("SELECT id::text, customer_id::text FROM orders "
                                       "ORDER BY id")).all()
        assert stored == [(str(order_id), str(MAX_ID)), (str(MAX_ID), "1")]

        top = client.get(f"/orders/{MAX_ID}")
        assert top.status_code == 200, top.text
        assert top.text == '{"id":"9223372036854775807","customer_id":"1","note":"max id"}'
        print(js_client_reads(top.text, {"id": MAX_ID, "customer_id": 1}), end="")
        assert client.get(f"/orders/{MAX_ID + 1}").status_code == 422
        assert client.post("/orders", json={"customer_id": 1.5}).status_code == 422

        schema = client.get("/openapi.json").json()["components"]["schemas"]
        assert schema["Order"]["properties"]["id"] == {
            "type": "string", "pattern": "^[0-9]{1,19}$", "title": "Id"}


def test_the_type_validates_ints_and_text_and_writes_strings() -> None:
    order = Order(id="386535469170708480", customer_id=MAX_ID, note="")
    assert order.id == 386535469170708480 and isinstance(order.id, int)
    assert order.model_dump() == {"id": 386535469170708480, "customer_id": MAX_ID, "note": ""}
    assert order.model_dump_json() == (
        '{"id":"386535469170708480","customer_id":"9223372036854775807","note":""}')
    assert Order.model_validate_json(order.model_dump_json()) == order
    for bad in [-1, MAX_ID + 1, "0x10", " 1", "", True, 1.0, None, [1]]:
        with pytest.raises(ValidationError) as raised:
            Order(id=bad, customer_id=None, note="")
        assert raised.value.errors()[0]["type"] in ("snowflake_id", "snowflake_id_type"), bad
    with pytest.raises(ValidationError, match="9223372036854775808"):
        Order(id=str(MAX_ID + 1), customer_id=None, note="")


def test_ids_nested_in_lists_dicts_and_strict_models_round_trip() -> None:
    from typing import Dict as D, List

    from pydantic import ConfigDict

    class Line(BaseModel):
        id: SnowflakeId

    class Basket(BaseModel):
        model_config = ConfigDict(strict=True)
        ids: List[SnowflakeId]
        by_name: D[str, SnowflakeId]
        lines: List[Line]

    basket = Basket(ids=[1, str(MAX_ID)], by_name={"a": MAX_ID}, lines=[Line(id=MAX_ID)])
    text = basket.model_dump_json()
    assert text == ('{"ids":["1","9223372036854775807"],"by_name":{"a":"9223372036854775807"},'
                    '"lines":[{"id":"9223372036854775807"}]}')
    assert Basket.model_validate_json(text) == basket
    assert basket.model_dump(mode="json")["ids"] == ["1", str(MAX_ID)]
    js_client_reads(text, {"ids.1": MAX_ID, "by_name.a": MAX_ID, "lines.0.id": MAX_ID})
