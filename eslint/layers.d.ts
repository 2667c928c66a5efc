// The type of eslint/layers.js, for the test that lints with it.
import type { ESLint } from 'eslint';

export declare const layers: ESLint.Plugin;
