module github.com/snowfleet/snowfleet/go

go 1.24
