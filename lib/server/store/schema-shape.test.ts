import { afterAll, beforeAll, expect, it } from "vitest";
import { createHarness, testDialect, type Harness } from "../test-harness";

// The registry's schema as the database itself describes it after every migration on a fresh
// database. Postgres: every column (type, nullability, default, collation, identity, generation
// expression), index definition and constraint. SQLite: each column's declared type, nullability,
// default, key position and kind (plain, hidden, generated virtual or stored), each index's
// columns, uniqueness and whether it is partial (not its predicate), WITHOUT ROWID and
// AUTOINCREMENT, and the triggers' names; not collations or generation expressions (SQLite keys
// compare byte-wise anyway). Held in a file per dialect, so a change to what the migrations create
// (or to how they are written, e.g. as SQL text or through Kysely's schema builder) that changes
// any of that shows here. The upgrade of an older file is release-fixture.test.ts's.
let h: Harness;
beforeAll(async () => {
  h = createHarness();
  await h.api.ready;
});
afterAll(async () => h?.close());

type Row = Record<string, unknown>;
const byName = (a: Row, b: Row) => String(a.name).localeCompare(String(b.name));

async function sqliteShape() {
  const tables = await h.sql(`SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name LIKE 'tl\\_%' ESCAPE '\\' ORDER BY name`);
  const shape: Row = {};
  for (const { name, type } of tables) {
    const columns = (await h.sql(`SELECT * FROM pragma_table_xinfo('${name}')`)).map((c) => ({
      name: c.name,
      type: String(c.type).toUpperCase(),
      notnull: c.notnull,
      default: c.dflt_value,
      pk: c.pk,
      // 0 plain, 1 a virtual table's hidden column, 2 generated VIRTUAL, 3 generated STORED
      hidden: c.hidden,
    }));
    const indexes = [];
    for (const ix of await h.sql(`SELECT * FROM pragma_index_list('${name}')`)) {
      const cols = (await h.sql(`SELECT name FROM pragma_index_info('${ix.name}') ORDER BY seqno`)).map((c) => c.name);
      // An automatic index (a key or UNIQUE constraint) is named by SQLite: only its columns count.
      indexes.push({ name: ix.origin === "c" ? ix.name : `(${ix.origin}) ${cols.join(",")}`, unique: ix.unique, partial: ix.partial, columns: cols });
    }
    const withoutRowid = (await h.sql(`SELECT sql FROM sqlite_master WHERE name = '${name}'`))[0]?.sql;
    shape[String(name)] = {
      type,
      withoutRowid: /WITHOUT\s+ROWID/i.test(String(withoutRowid)),
      autoincrement: /AUTOINCREMENT/i.test(String(withoutRowid)),
      columns,
      indexes: indexes.sort(byName),
    };
  }
  const triggers = (await h.sql(`SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger' ORDER BY name`)).map((t) => `${t.tbl_name}.${t.name}`);
  return { tables: shape, triggers };
}

async function postgresShape() {
  const columns = await h.sql(`
    SELECT table_name, column_name, data_type, is_nullable, column_default, collation_name, is_identity, identity_generation, is_generated, generation_expression
    FROM information_schema.columns WHERE table_schema = current_schema() AND table_name LIKE 'tl\\_%'
    ORDER BY table_name, ordinal_position`);
  const indexes = await h.sql(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename LIKE 'tl\\_%' ORDER BY tablename, indexname`);
  const constraints = await h.sql(`
    SELECT c.conrelid::regclass::text AS table_name, c.conname, pg_get_constraintdef(c.oid) AS def
    FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
    WHERE n.nspname = current_schema() AND c.conrelid::regclass::text LIKE 'tl\\_%' ORDER BY 1, 2`);
  const tables: Row = {};
  for (const c of columns) {
    const t = (tables[String(c.table_name)] ??= { columns: [], indexes: [], constraints: [] }) as { columns: Row[] };
    t.columns.push(Object.fromEntries(Object.entries(c).filter(([k]) => k !== "table_name")));
  }
  for (const ix of indexes) (tables[String(ix.tablename)] as { indexes: string[] }).indexes.push(String(ix.indexdef));
  for (const k of constraints) (tables[String(k.table_name)] as { constraints: string[] }).constraints.push(`${k.conname}: ${k.def}`);
  return { tables };
}

/** One line per table fact (its columns, indexes, constraints), so a change reads as a one-line diff. */
function asText(shape: { tables: Row; triggers?: string[] }): string {
  const lines: string[] = [];
  for (const [name, table] of Object.entries(shape.tables)) {
    lines.push(name);
    for (const [key, value] of Object.entries(table as Row)) {
      if (Array.isArray(value)) for (const item of value) lines.push(`  ${key}: ${JSON.stringify(item)}`);
      else lines.push(`  ${key}: ${JSON.stringify(value)}`);
    }
  }
  for (const t of shape.triggers ?? []) lines.push(`trigger ${t}`);
  return lines.join("\n") + "\n";
}

it(`the ${testDialect} schema the migrations create is the one on file`, async () => {
  const shape = testDialect === "postgres" ? await postgresShape() : await sqliteShape();
  await expect(asText(shape)).toMatchFileSnapshot(`./fixtures/schema-${testDialect}.txt`);
});
