/** Builders of what a log holds: stage records as symfonic writes them (JSON, snake_case keys). */

/** A logged stage record: its tool lists empty unless `fields` gives them. */
export function loggedRecord(stage: string, action: string, fields: Record<string, unknown> = {}) {
  return { stage, action, kept: [], dropped: [], added: [], reinstated: [], ...fields };
}

/** A logged stage record with every field symfonic writes: no forced choice and no detail unless `fields` gives them. */
export function writtenRecord(
  stage: string,
  action = "select",
  fields: Record<string, unknown> = {},
) {
  return loggedRecord(stage, action, { forced_choice: null, detail: "", ...fields });
}
