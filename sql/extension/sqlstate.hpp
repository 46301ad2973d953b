// The SQLSTATE of each error kind of the core: how SQL code tells errors apart (EXCEPTION
// WHEN SQLSTATE '22023', or a client's error code), written once for the extension; the
// plain-SQL file (sql/postgresql/snowfleet.sql) raises the same ones.
#pragma once

#include "snowfleet/errors.hpp"

namespace snowfleet_pg {

/// An ERRCODE (MAKE_SQLSTATE) for kind.
int sqlstate(snowfleet::ErrorKind kind) noexcept;

}  // namespace snowfleet_pg
