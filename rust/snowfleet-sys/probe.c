/* The header's sizes, offsets and constants as a C compiler sees them: tests/abi.rs compares
 * them with the crate's declarations. Not part of the C interface (no snowfleet_ prefix). */
#include <snowfleet.h>
#include <stddef.h>

#define SIZE(t) sizeof(t)
const size_t sfsys_sizes[] = {
    SIZE(snowfleet_error),         SIZE(snowfleet_layout),         SIZE(snowfleet_layout_args),
    SIZE(snowfleet_decoded),       SIZE(snowfleet_compose_args),   SIZE(snowfleet_clock_segment),
    SIZE(snowfleet_clock_counters), SIZE(snowfleet_options),       SIZE(snowfleet_generator_info),
    SIZE(snowfleet_stats),         SIZE(snowfleet_status),         SIZE(snowfleet_uuid7_options),
    SIZE(snowfleet_uuid7_fields),
};
const size_t sfsys_offsets[] = {
    offsetof(snowfleet_error, message),
    offsetof(snowfleet_layout, epoch_ms),
    offsetof(snowfleet_layout, max_timestamp_ms),
    offsetof(snowfleet_options, node_source),
    offsetof(snowfleet_options, max_wait_ms),
    offsetof(snowfleet_options, max_drift_ms),
    offsetof(snowfleet_options, clock),
    offsetof(snowfleet_generator_info, max_wait_ms),
    offsetof(snowfleet_status, reason),
    offsetof(snowfleet_status, wall_ms),
    offsetof(snowfleet_status, mode),
    offsetof(snowfleet_status, mark_headroom_ms),
    offsetof(snowfleet_stats, lease_renewal_failures),
    offsetof(snowfleet_uuid7_options, random_seed),
};
const long long sfsys_constants[] = {
    SNOWFLEET_OK,           SNOWFLEET_RESULT_END,    SNOWFLEET_MESSAGE_MAX,
    SNOWFLEET_LAYOUT_TEXT_MAX, SNOWFLEET_ID_TEXT_MAX, SNOWFLEET_TIME_TEXT_MAX,
    SNOWFLEET_UUID_TEXT_MAX, SNOWFLEET_DECIMAL,      SNOWFLEET_BASE32,
    SNOWFLEET_BASE62,
    SNOWFLEET_ANY,
};
