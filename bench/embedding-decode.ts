/**
 * `node --import tsx bench/embedding-decode.ts [checkout]` (issue 40, lever 17): CPU of decoding one 1,536-value
 * base64 embedding as the upstream sends it (provider-kit's decodeBase64Vector), per decode, after a warm-up. The
 * checkout defaults to this one; give another (a `git archive` of packages/provider-kit and packages/core with
 * node_modules linked) to compare. One JSON line.
 */
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { decodeBase64Vector } = require(`${root}/packages/provider-kit/src/embeddings-dialect/openai-embeddings-model`);

const vector = Float32Array.from({ length: 1536 }, (_, i) => Math.sin(i) / 39.2);
const b64 = Buffer.from(vector.buffer).toString('base64');
const runs = Number(process.env.BENCH_DECODES ?? 20000);
for (let i = 0; i < 2000; i++) decodeBase64Vector(b64);
const start = process.cpuUsage();
for (let i = 0; i < runs; i++) decodeBase64Vector(b64);
const used = process.cpuUsage(start);
console.log(JSON.stringify({ values: vector.length, cpuPerDecodeUs: +((used.user + used.system) / runs).toFixed(1) }));
