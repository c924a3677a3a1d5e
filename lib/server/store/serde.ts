/**
 * Turns graph output into plain JSON the way the LangGraph API does: LangChain messages become
 * `{ ...data, type }` dicts (what the SDK's message coercion expects), everything else is
 * JSON-cloned. A value that cannot be serialised must not kill a run's stream, so cycles and
 * functions are dropped instead of throwing.
 */
type Dictable = { toDict: () => { type: string; data: Record<string, unknown> } };

function isDictable(v: unknown): v is Dictable {
  return typeof v === "object" && v !== null && typeof (v as Partial<Dictable>).toDict === "function";
}

export function toJsonValue(value: unknown): unknown {
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (v === null || typeof v === "string" || typeof v === "boolean") return v;
    if (typeof v === "number") return Number.isFinite(v) ? v : null;
    if (typeof v === "bigint") return v.toString();
    if (v === undefined || typeof v === "function" || typeof v === "symbol") return undefined;
    if (v instanceof Date) return v.toISOString();
    if (typeof v !== "object") return undefined;
    if (seen.has(v)) return undefined;
    seen.add(v);
    try {
      if (isDictable(v)) {
        const { type, data } = v.toDict();
        return walk({ ...data, type });
      }
      if (Array.isArray(v)) return v.map((x) => walk(x) ?? null);
      if (v instanceof Map) return walk(Object.fromEntries(v));
      if (v instanceof Set) return walk([...v]);
      const json = (v as { toJSON?: () => unknown }).toJSON;
      if (typeof json === "function" && !isPlainObject(v)) return walk(json.call(v));
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const w = walk(x);
        if (w !== undefined) out[k] = w;
      }
      return out;
    } finally {
      seen.delete(v);
    }
  };
  return walk(value);
}

function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export const toJson = (value: unknown): string => JSON.stringify(toJsonValue(value) ?? null);
