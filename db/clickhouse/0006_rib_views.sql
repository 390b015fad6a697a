-- Live routing tables (BMP, RFC 7854 / RFC 9069) hold several tables of one router: the Adj-RIB-In
-- of each peer before and after the router's import policy, and the router's own Loc-RIB; a session
-- with ADD-PATH (RFC 7911) carries several paths of one prefix from one peer. Both become columns of
-- the routing tables and of rib_current's sorting key, so such routes no longer replace each other:
-- rib_view ('pre-policy', 'post-policy', 'loc-rib') and path_id (0 without ADD-PATH). Extended
-- communities (RFC 4360, "RT:64497:42") get their own column beside the standard and large ones.
--
-- Rows written before this migration are MRT imports and the demo's: post-policy, path 0, no
-- extended communities. A key may grow only by columns added in the same statement, and those may not
-- have a default there: the default comes in the next statement (a change of metadata only). Parts
-- written before hold none of the new columns and read the defaults, so old rows need no rewrite.
ALTER TABLE rib_entries{{LOCAL}} {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS rib_view Enum8('pre-policy' = 1, 'post-policy' = 2, 'loc-rib' = 3) DEFAULT 'post-policy',
    ADD COLUMN IF NOT EXISTS path_id UInt32 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS ext_communities Array(String) DEFAULT [];

ALTER TABLE rib_current{{LOCAL}} {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS rib_view Enum8('pre-policy' = 1, 'post-policy' = 2, 'loc-rib' = 3),
    ADD COLUMN IF NOT EXISTS path_id UInt32,
    MODIFY ORDER BY (vantage_point, route_distinguisher, prefix_addr, prefix_len, peer_ip, rib_view, path_id);

ALTER TABLE rib_current{{LOCAL}} {{ON_CLUSTER}}
    MODIFY COLUMN rib_view Enum8('pre-policy' = 1, 'post-policy' = 2, 'loc-rib' = 3) DEFAULT 'post-policy',
    MODIFY COLUMN path_id UInt32 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS ext_communities Array(String) DEFAULT [];

-- The view that copies every routing event into the current table must carry the new columns. A view
-- is only a trigger on inserts: replacing it keeps every row of rib_current.
DROP VIEW IF EXISTS rib_current_mv{{LOCAL}} {{ON_CLUSTER}};

CREATE MATERIALIZED VIEW IF NOT EXISTS rib_current_mv{{LOCAL}} {{ON_CLUSTER}} TO rib_current{{LOCAL}} AS
SELECT timestamp, vantage_point, router_ip, peer_ip, peer_asn, route_distinguisher, prefix, prefix_addr, prefix_len,
       afi, safi, is_withdrawn, as_path, as_path_set, as_confed_seq, local_pref, med, bgp_next_hop, origin,
       aggregator, originator_id, communities, rib_view, path_id, ext_communities
FROM rib_entries{{LOCAL}};

-- On a cluster the Distributed tables that queries read and write need the columns too; on a single
-- server these are the same tables and the statements change nothing.
ALTER TABLE rib_entries {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS rib_view Enum8('pre-policy' = 1, 'post-policy' = 2, 'loc-rib' = 3) DEFAULT 'post-policy',
    ADD COLUMN IF NOT EXISTS path_id UInt32 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS ext_communities Array(String) DEFAULT [];

ALTER TABLE rib_current {{ON_CLUSTER}}
    ADD COLUMN IF NOT EXISTS rib_view Enum8('pre-policy' = 1, 'post-policy' = 2, 'loc-rib' = 3) DEFAULT 'post-policy',
    ADD COLUMN IF NOT EXISTS path_id UInt32 DEFAULT 0,
    ADD COLUMN IF NOT EXISTS ext_communities Array(String) DEFAULT [];
