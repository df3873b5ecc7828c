#!/usr/bin/env node
// Redacts checked-in evidence again with today's rules, without re-recording: each file is read, redacted
// by the built redactor (no declared secrets: those never reached the file) and written back in place.
// Values already redacted stay markers; only what a newer rule finds changes, plus the evidence id and the
// marker counts. Used once for issue 13 (a REST nonce an answer handed out and a request header sent back,
// test/fixtures/real-ui/wordpress.ui.evidence.json). Run `npm run build` first.
//   node scripts/reredact-evidence.mjs FILE...
import { readEvidence, writeEvidence } from "../dist/evidence/evidence-io.js";
import { createRedactor, redactEvidence } from "../dist/evidence/redaction.js";

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write("usage: node scripts/reredact-evidence.mjs FILE...\n");
  process.exit(2);
}
for (const file of files) {
  const { redactions, evidence_id, ...rest } = await readEvidence(file);
  const out = redactEvidence(rest, createRedactor({ secrets: [] }));
  const before = new Map(redactions.map((r) => [r.marker, r.count]));
  const changed = out.redactions.filter((r) => before.get(r.marker) !== r.count);
  if (out.evidence_id === evidence_id) {
    process.stdout.write(`${file}: unchanged\n`);
    continue;
  }
  await writeEvidence(file, out);
  const said = changed.map((r) => `${r.marker} ×${r.count}`).join(", ");
  process.stdout.write(`${file}: ${evidence_id} -> ${out.evidence_id} (${said})\n`);
}
