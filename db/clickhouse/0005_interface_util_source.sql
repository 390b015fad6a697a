-- Where each interval's bytes come from: source 'snmp' (interface counters read by the SNMP poller),
-- 'flows' (derived from flows) or 'demo' (the demo network's generated counters), and interpolated = 1
-- when the bytes were spread over intervals whose polls were missed (app/features/collector/snmp/
-- accounting.ts). Until now the demo loader was the only writer of this table, so the rows written
-- before this migration are 'demo'; every writer names its source.
--
-- The sorting key gains the source: an interval measured by SNMP and the same interval derived from
-- flows are two rows and do not replace each other (the engine replaces rows with equal keys). Readers
-- pick one row per (router, interface, time), SNMP first, then flows, then demo (docs/architecture.md
-- section 8c). A key may grow only by columns added in the same statement, and those may not have a
-- default there: the default comes in the next statement (a change of metadata only). Parts written
-- before hold no source column and read the default, 'demo', so old rows need no rewrite.
ALTER TABLE interface_util_5m{{LOCAL}} {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS source LowCardinality(String),
    ADD COLUMN IF NOT EXISTS interpolated UInt8 DEFAULT 0,
    MODIFY ORDER BY (router, interface, time, source);

ALTER TABLE interface_util_5m{{LOCAL}} {{ON_CLUSTER}}
    MODIFY COLUMN source LowCardinality(String) DEFAULT 'demo';

-- On a cluster the Distributed table that queries read and write needs the columns too; on a single
-- server this is the same table and the statement changes nothing.
ALTER TABLE interface_util_5m {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS source LowCardinality(String) DEFAULT 'demo',
    ADD COLUMN IF NOT EXISTS interpolated UInt8 DEFAULT 0;
