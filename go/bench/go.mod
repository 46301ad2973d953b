module github.com/snowfleet/snowfleet/go/bench

go 1.24

require (
	github.com/bwmarrin/snowflake v0.3.0
	github.com/google/uuid v1.6.0
	github.com/snowfleet/snowfleet/go v0.0.0
	github.com/sony/sonyflake/v2 v2.0.0
)

replace github.com/snowfleet/snowfleet/go => ../
