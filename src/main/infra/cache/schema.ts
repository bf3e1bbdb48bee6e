import { fillNames } from './names'
import type { SqliteDatabase } from './sqlite'

/**
 * The text index's page size: the largest FTS5 page whose row (a few bytes of record header around it) stays within
 * a database page after SQLCipher's 80 reserved bytes (4,096 − 80 − 35 bytes of cell overhead, rounded down).
 */
const TEXT_PAGE_BYTES = 3_900

/** The metadata key that says the text index is left behind (see migration 3). */
export const TEXT_DEFERRED_KEY = 'tx.textDeferred'
const TEXT_KEPT = `NOT EXISTS (SELECT 1 FROM meta WHERE k = '${TEXT_DEFERRED_KEY}' AND v = 'true')`

/** The metadata key that said the rows' kept names were not filled yet (migration 9; cleared by 10). */
const NAMES_PENDING_KEY = 'tx.namesPending'
const NAMES_KEPT = `NOT EXISTS (SELECT 1 FROM meta WHERE k = '${NAMES_PENDING_KEY}' AND v = 'true')`
/** Migration 9's statements that write one label (or NULL) onto every row naming its id, one per column by its index. */
const relabel = (id: string, name: string) => `
    UPDATE tx SET customer_name = ${name} WHERE customer_id = ${id};
    UPDATE tx SET source_name = ${name} WHERE source_account = ${id};
    UPDATE tx SET destination_name = ${name} WHERE destination_account = ${id};`

/**
 * The cache database's schema, versioned with `user_version`. Each migration takes the database from the version
 * before it to its own; a database from a newer Paydesk is not guessed at (the cache is rebuilt from the service).
 */
export const MIGRATIONS: readonly string[] = [
  // 1: documents by collection, metadata, transactions with a column per filter and sort, and their text index. The
  //    text index keeps no positions (detail=none, a third of the size): it narrows a search to the rows holding all of
  //    its trigrams, and the query confirms the substring on those rows. The status, type and currency indexes carry
  //    the other two columns and every sort key, so any mix of those filters is counted and ordered from one index
  //    without reading rows; only the window's own rows are read.
  `
  CREATE TABLE docs (c TEXT NOT NULL, id TEXT NOT NULL, fp TEXT NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (c, id))
    WITHOUT ROWID;
  CREATE TABLE meta (k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE tx (
    rid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    amount INTEGER NOT NULL,
    currency TEXT NOT NULL,
    status TEXT NOT NULL,
    type TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    platform_customer_id TEXT NOT NULL,
    source_account TEXT,
    destination_account TEXT,
    reference TEXT,
    search TEXT NOT NULL,
    fp TEXT NOT NULL,
    doc TEXT NOT NULL
  );
  CREATE INDEX tx_created ON tx (created_at, id);
  CREATE INDEX tx_updated ON tx (updated_at, created_at, id);
  CREATE INDEX tx_amount ON tx (amount, created_at, id);
  CREATE INDEX tx_status ON tx (status, currency, type, created_at, updated_at, amount, id);
  CREATE INDEX tx_type ON tx (type, status, currency, created_at, updated_at, amount, id);
  CREATE INDEX tx_customer ON tx (customer_id, created_at, id);
  CREATE INDEX tx_platform_customer ON tx (platform_customer_id, created_at, id);
  CREATE INDEX tx_currency ON tx (currency, status, type, created_at, updated_at, amount, id);
  CREATE INDEX tx_source ON tx (source_account, created_at, id);
  CREATE INDEX tx_destination ON tx (destination_account, created_at, id);
  CREATE INDEX tx_reference ON tx (reference);
  CREATE VIRTUAL TABLE tx_text USING fts5(search, content='tx', content_rowid='rid', tokenize='trigram', detail='none');
  CREATE TRIGGER tx_text_insert AFTER INSERT ON tx BEGIN
    INSERT INTO tx_text (rowid, search) VALUES (new.rid, new.search);
  END;
  CREATE TRIGGER tx_text_delete AFTER DELETE ON tx BEGIN
    INSERT INTO tx_text (tx_text, rowid, search) VALUES ('delete', old.rid, old.search);
  END;
  CREATE TRIGGER tx_text_update AFTER UPDATE OF search ON tx BEGIN
    INSERT INTO tx_text (tx_text, rowid, search) VALUES ('delete', old.rid, old.search);
    INSERT INTO tx_text (rowid, search) VALUES (new.rid, new.search);
  END;
  `,
  // 2: the account indexes carry type, status, currency and the sort keys too (an account filter is then counted and
  //    ordered without reading rows), and the planner gets fixed statistics instead of an ANALYZE, which takes seconds
  //    at a million rows: the shape of the data (few statuses, types and currencies; many customers and accounts) is
  //    what picks the index, not the exact counts.
  `
  DROP INDEX tx_source;
  DROP INDEX tx_destination;
  CREATE INDEX tx_source ON tx (source_account, type, status, currency, created_at, updated_at, amount, id);
  CREATE INDEX tx_destination ON tx (destination_account, type, status, currency, created_at, updated_at, amount, id);
  ANALYZE sqlite_schema;
  DELETE FROM sqlite_stat1 WHERE tbl = 'tx';
  INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
    ('tx', NULL, '1000000'),
    ('tx', 'tx_created', '1000000 1 1'),
    ('tx', 'tx_updated', '1000000 1 1 1'),
    ('tx', 'tx_amount', '1000000 5 1 1'),
    ('tx', 'tx_status', '1000000 125000 30000 15000 1 1 1 1'),
    ('tx', 'tx_type', '1000000 500000 60000 15000 1 1 1 1'),
    ('tx', 'tx_currency', '1000000 250000 30000 15000 1 1 1 1'),
    ('tx', 'tx_customer', '1000000 500 1 1'),
    ('tx', 'tx_platform_customer', '1000000 500 1 1'),
    ('tx', 'tx_source', '1000000 2000 1000 200 60 1 1 1 1'),
    ('tx', 'tx_destination', '1000000 2000 1000 200 60 1 1 1 1'),
    ('tx', 'tx_reference', '1000000 2');
  ANALYZE sqlite_schema;
  `,
  // 3: the text index can be left behind while a long history is first read (meta 'tx.textDeferred' is 'true'): kept
  //    row by row it cost a third of each page's write. Whoever sets the flag rebuilds the index from tx and clears
  //    the flag in one transaction (writes.ts rebuildText); a flag left by a crash is acted on when the cache opens.
  `
  DROP TRIGGER tx_text_insert;
  DROP TRIGGER tx_text_delete;
  DROP TRIGGER tx_text_update;
  CREATE TRIGGER tx_text_insert AFTER INSERT ON tx WHEN ${TEXT_KEPT} BEGIN
    INSERT INTO tx_text (rowid, search) VALUES (new.rid, new.search);
  END;
  CREATE TRIGGER tx_text_delete AFTER DELETE ON tx WHEN ${TEXT_KEPT} BEGIN
    INSERT INTO tx_text (tx_text, rowid, search) VALUES ('delete', old.rid, old.search);
  END;
  CREATE TRIGGER tx_text_update AFTER UPDATE OF search ON tx WHEN ${TEXT_KEPT} BEGIN
    INSERT INTO tx_text (tx_text, rowid, search) VALUES ('delete', old.rid, old.search);
    INSERT INTO tx_text (rowid, search) VALUES (new.rid, new.search);
  END;
  `,
  // 4: a text index with positions (tx_search, detail=full): a needle of any length is then one phrase query that is
  //    exact on its own, so a common word no longer reads every candidate row to confirm it (3.4 s for 'invoice' at a
  //    million rows); no column sizes (only ranking reads them). And the number of transactions, kept by triggers in
  //    the same transaction as the rows, so the unfiltered total is one row read instead of a count over a million.
  //    Both are filled in the writer thread, never here (migrations run on main while the cache opens): the index is
  //    left behind with migration 3's flag and rebuilt by whoever opens the cache (writes.ts rebuildText, which also
  //    drops the old index), and a NULL count means "not known yet": NULL + 1 stays NULL, readers count the rows.
  `
  DROP TRIGGER tx_text_insert;
  DROP TRIGGER tx_text_delete;
  DROP TRIGGER tx_text_update;
  CREATE VIRTUAL TABLE tx_search USING fts5(
    search, content='tx', content_rowid='rid', tokenize='trigram', detail='full', columnsize=0
  );
  CREATE TRIGGER tx_search_insert AFTER INSERT ON tx WHEN ${TEXT_KEPT} BEGIN
    INSERT INTO tx_search (rowid, search) VALUES (new.rid, new.search);
  END;
  CREATE TRIGGER tx_search_delete AFTER DELETE ON tx WHEN ${TEXT_KEPT} BEGIN
    INSERT INTO tx_search (tx_search, rowid, search) VALUES ('delete', old.rid, old.search);
  END;
  CREATE TRIGGER tx_search_update AFTER UPDATE OF search ON tx WHEN ${TEXT_KEPT} BEGIN
    INSERT INTO tx_search (tx_search, rowid, search) VALUES ('delete', old.rid, old.search);
    INSERT INTO tx_search (rowid, search) VALUES (new.rid, new.search);
  END;
  INSERT INTO meta (k, v) SELECT '${TEXT_DEFERRED_KEY}', 'true' WHERE EXISTS (SELECT 1 FROM tx)
    ON CONFLICT (k) DO UPDATE SET v = excluded.v;
  CREATE TABLE tx_count (one INTEGER PRIMARY KEY CHECK (one = 1), n INTEGER);
  INSERT INTO tx_count (one, n) VALUES (1, CASE WHEN EXISTS (SELECT 1 FROM tx) THEN NULL ELSE 0 END);
  CREATE TRIGGER tx_count_insert AFTER INSERT ON tx BEGIN UPDATE tx_count SET n = n + 1; END;
  CREATE TRIGGER tx_count_delete AFTER DELETE ON tx BEGIN UPDATE tx_count SET n = n - 1; END;
  CREATE TABLE tx_groups (status TEXT NOT NULL, type TEXT NOT NULL, currency TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (status, type, currency)) WITHOUT ROWID;
  CREATE TRIGGER tx_groups_insert AFTER INSERT ON tx BEGIN
    INSERT INTO tx_groups VALUES (new.status, new.type, new.currency, 1)
      ON CONFLICT DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER tx_groups_delete AFTER DELETE ON tx BEGIN
    UPDATE tx_groups SET n = n - 1 WHERE status = old.status AND type = old.type AND currency = old.currency;
  END;
  CREATE TRIGGER tx_groups_update AFTER UPDATE OF status, type, currency ON tx BEGIN
    UPDATE tx_groups SET n = n - 1 WHERE status = old.status AND type = old.type AND currency = old.currency;
    INSERT INTO tx_groups VALUES (new.status, new.type, new.currency, 1)
      ON CONFLICT DO UPDATE SET n = n + 1;
  END;
  INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES
    ('tx', 'tx_by_created', '1000000 1 1 1 1 1 1'),
    ('tx', 'tx_by_updated', '1000000 1 1 1 1 1 1 1'),
    ('tx', 'tx_by_amount', '1000000 5 1 1 1 1 1'),
    ('tx', 'tx_by_status', '1000000 125000 1 1 1 1 1');
  ANALYZE sqlite_schema;
  `,
  // 5: text index pages that fit in one database page. FTS5 writes its pages 4,050 bytes long, but SQLCipher keeps 80
  //    bytes of each 4,096-byte page for its IV and MAC, so every one overflowed onto a second page: a search read two
  //    pages (two decryptions) for each one of the index, and a first search at a million rows reads thousands.
  //    Segments written from now on (the writer's merges, a rebuild) use the smaller size; the ones already written
  //    are read as they are.
  `
  INSERT INTO tx_search (tx_search, rank) VALUES ('pgsz', ${TEXT_PAGE_BYTES});
  `,
  // 6: the rows written out of creation order (creation-order.ts says what for). Sync reads a history oldest first and
  //    then what is new, so a row's rowid nearly always follows its creation time. tx_order keeps the greatest creation
  //    keys written so far, and a row written with smaller ones, or whose keys changed, is listed in tx_late: every
  //    other row's rowid order is its creation order. A cache with rows gets tx_late from the writer thread
  //    (writes.ts recordCreationOrder; 2.5 s at a million rows), which sets \`known\`; until then nothing relies on it.
  //    No OR IGNORE in the triggers: an upsert's own conflict handling overrides theirs, and a repeat failed the write.
  `
  CREATE TABLE tx_order (one INTEGER PRIMARY KEY CHECK (one = 1), created_at INTEGER, id TEXT, known INTEGER NOT NULL);
  INSERT INTO tx_order (one, known) VALUES (1, NOT EXISTS (SELECT 1 FROM tx));
  CREATE TABLE tx_late (rid INTEGER PRIMARY KEY);
  CREATE TRIGGER tx_order_insert AFTER INSERT ON tx BEGIN
    INSERT INTO tx_late (rid) SELECT new.rid FROM tx_order
      WHERE (new.created_at, new.id) < (created_at, id) AND NOT EXISTS (SELECT 1 FROM tx_late WHERE rid = new.rid);
    UPDATE tx_order SET created_at = new.created_at, id = new.id
      WHERE created_at IS NULL OR (new.created_at, new.id) > (created_at, id);
  END;
  CREATE TRIGGER tx_order_update AFTER UPDATE OF created_at, id ON tx
    WHEN new.created_at IS NOT old.created_at OR new.id IS NOT old.id BEGIN
    INSERT INTO tx_late (rid) SELECT new.rid WHERE NOT EXISTS (SELECT 1 FROM tx_late WHERE rid = new.rid);
  END;
  CREATE TRIGGER tx_order_delete AFTER DELETE ON tx BEGIN
    DELETE FROM tx_late WHERE rid = old.rid;
  END;
  `,
  // 7: the names of customers and accounts by id (names.ts), so the transaction views show "Priya Raman" and
  //    "Platform · USD" read in the same statement as their rows, and a search for a name finds the customer's
  //    transactions through the customer index. A cache with documents is labelled as it upgrades (migrate below):
  //    customers and accounts number in the thousands, not the millions, and no transaction row is touched.
  `
  CREATE TABLE names (id TEXT PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, search TEXT NOT NULL, owner TEXT)
    WITHOUT ROWID;
  CREATE INDEX names_owner ON names (owner) WHERE owner IS NOT NULL;
  `,
  // 8: the statuses a transaction was seen in (status-history.ts), for the detail's timeline. Written only when a
  //    write changes a row's status: a row's first status is its current one and costs no row here, so a first sync
  //    of a million transactions writes nothing more, and an existing cache upgrades without touching its rows (each
  //    transaction's current status is its timeline's first entry). The first change writes the status it replaces,
  //    then the new one. seen_at is the service's updatedAt when it gave one (by_service 1), else the sync's time.
  `
  CREATE TABLE tx_history (tx_id TEXT NOT NULL, status TEXT NOT NULL, seen_at INTEGER NOT NULL,
    by_service INTEGER NOT NULL);
  CREATE INDEX tx_history_tx ON tx_history (tx_id);
  CREATE TRIGGER tx_history_delete AFTER DELETE ON tx BEGIN DELETE FROM tx_history WHERE tx_id = old.id; END;
  `,
  // 9: each transaction row keeps the names it shows (customer, source and destination account), so a window reads
  //    them with its rows and nothing more: looked up per window from migration 7's table, names cost the list
  //    1.16-1.29x its time before names (docs/transactions-export.md). A row is written with its names (writes.ts), and
  //    a label that changes is written onto the rows naming it by these triggers, in the same transaction as the
  //    customer's or account's write, by the customer and account indexes. Filling an existing cache rewrites every
  //    row (seconds at a million), so it is the writer thread's (writes.ts finishSchema) and the flag says it is
  //    pending until then: the triggers wait for it, and readers look names up per row meanwhile (names.ts).
  `
  ALTER TABLE tx ADD COLUMN customer_name TEXT;
  ALTER TABLE tx ADD COLUMN source_name TEXT;
  ALTER TABLE tx ADD COLUMN destination_name TEXT;
  CREATE TRIGGER names_insert AFTER INSERT ON names WHEN ${NAMES_KEPT} BEGIN ${relabel('new.id', 'new.name')}
  END;
  CREATE TRIGGER names_update AFTER UPDATE OF name ON names WHEN new.name IS NOT old.name AND ${NAMES_KEPT} BEGIN
    ${relabel('new.id', 'new.name')}
  END;
  CREATE TRIGGER names_delete AFTER DELETE ON names WHEN ${NAMES_KEPT} BEGIN ${relabel('old.id', 'NULL')}
  END;
  INSERT INTO meta (k, v) SELECT '${NAMES_PENDING_KEY}', 'true' WHERE EXISTS (SELECT 1 FROM tx)
    ON CONFLICT (k) DO UPDATE SET v = excluded.v;
  `,
  // 10: the rows no longer keep names: main names a window's ids from the names table (names.ts LabelMemory), and a
  //    window reads its documents alone, which costs the list no more than before names (docs/transactions-export.md).
  //    The triggers that wrote labels onto the rows go, and so does the pending fill (a cache upgraded to 9 and not yet
  //    filled is never filled). The three columns stay, unread: dropping a column rewrites every row (minutes at a
  //    million, here on main while the cache opens); rows written from now on leave them NULL.
  `
  DROP TRIGGER names_insert;
  DROP TRIGGER names_update;
  DROP TRIGGER names_delete;
  DELETE FROM meta WHERE k = '${NAMES_PENDING_KEY}';
  `
]

/**
 * Each row's creation-order keys by rowid: a search whose few candidates are sorted (text-search.ts, plan 'drive')
 * reads them here, a few hundred rows to a page, instead of from the rows themselves, a page or more each. '0035' at a
 * million rows (4,488 candidates, nearly all old) read about 1,800 pages for its newest 42, 36-40 ms cold; here 10-13.
 * Added to DEFERRED_SCHEMA after schema 5: a cache that finished that schema before gets it from the writer thread
 * when it opens (store.ts; 8.5 s at a million rows), and searches sort from the rows until then.
 */
export const KEYS_BY_ROWID = 'tx_by_rid'

/** Whether the cache has the index of this name: the ones added after it was made are built later. */
export function hasIndex(db: SqliteDatabase, name: string): boolean {
  return db.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = ?").pluck().get(name) === 1
}

/**
 * Work of migration 4 that takes seconds at a million rows, done by the writer thread when it rebuilds the text
 * index (writes.ts rebuildText), never on main. The sort indexes carry the columns of the dense filters (status, type,
 * currency, amount, creation time), so a window of a filter that matches many rows walks its sort's index in order
 * and stops at the window's end, without reading a row or sorting the matches (store.ts); sorting by status gets an
 * index of its own. They also answer what the status, type and currency indexes did (a few rows: tx_by_status, or
 * the range of a sort index; totals: the group counts), so those go, 100 MB each at a million rows. Until they exist,
 * queries are answered as before from the indexes they replace.
 */
export const DEFERRED_SCHEMA = `
  CREATE INDEX IF NOT EXISTS tx_by_created ON tx (created_at, id, status, type, currency, amount);
  CREATE INDEX IF NOT EXISTS tx_by_updated ON tx (updated_at, created_at, id, status, type, currency, amount);
  CREATE INDEX IF NOT EXISTS tx_by_amount ON tx (amount, created_at, id, status, type, currency);
  CREATE INDEX IF NOT EXISTS tx_by_status ON tx (status, created_at, id, type, currency, amount);
  DROP INDEX IF EXISTS tx_created;
  DROP INDEX IF EXISTS tx_updated;
  DROP INDEX IF EXISTS tx_amount;
  DROP INDEX IF EXISTS tx_status;
  DROP INDEX IF EXISTS tx_type;
  DROP INDEX IF EXISTS tx_currency;
  CREATE INDEX IF NOT EXISTS ${KEYS_BY_ROWID} ON tx (rid, created_at, id);
`

/** Whether the text index is left behind during a catch-up (migration 3's flag, written with the rows). */
export function textDeferred(db: SqliteDatabase): boolean {
  return db.prepare('SELECT v FROM meta WHERE k = ?').pluck().get(TEXT_DEFERRED_KEY) === 'true'
}

/** Whether tx_late lists every row written out of creation order (migration 6). */
export function creationOrderKnown(db: SqliteDatabase): boolean {
  return db.prepare('SELECT known FROM tx_order').pluck().get() === 1
}

/** The index that says migration 4's structures are all there and counted (DEFERRED_SCHEMA ran). */
export const FINISHED_SCHEMA_INDEX = 'tx_by_status'

export const SCHEMA_VERSION = MIGRATIONS.length

/** Brings the schema up to date in one transaction. Returns false for a database written by a newer version. */
export function migrate(db: SqliteDatabase): boolean {
  const version = db.pragma('user_version', { simple: true }) as number
  if (version > SCHEMA_VERSION) return false
  if (version === SCHEMA_VERSION) return true
  db.transaction(() => {
    for (let v = version; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!)
    // Without transactions, migration 4's deferred work is instant, and nothing would ask the writer to do it.
    if (version < 4 && !db.prepare('SELECT EXISTS (SELECT 1 FROM tx)').pluck().get()) db.exec(DEFERRED_SCHEMA)
    if (version < 7) fillNames(db)
    db.pragma(`user_version = ${SCHEMA_VERSION}`)
  })()
  return true
}
