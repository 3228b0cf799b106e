// The Node.js flags the `academy` command runs with: those of its shebang (ADR 0011, 0015, 0018).
// Benchmark and soak servers start with the same, as a deployment does; the deploy files are checked
// against them (test/deploy/files.test.ts).
import { readFileSync } from 'node:fs';

const shebang = readFileSync(new URL('../bin/academy.js', import.meta.url), 'utf8').split('\n')[0] as string;

export const SERVER_FLAGS: string[] = shebang.replace('#!/usr/bin/env -S node ', '').split(' ');
