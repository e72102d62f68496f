/**
 * The part of zod wicket builds schemas with. It is the entry of zod's bundle of its own (build.mjs),
 * so esbuild keeps only these and what they need: the whole library took about three times as
 * long to start. A schema built with anything else does not type-check, so nothing missing here
 * can be reached at run time.
 */
import { array, boolean, discriminatedUnion, enum as zodEnum, literal, looseObject, number, record, strictObject, string, toJSONSchema, union } from 'zod';

export const z = { array, boolean, discriminatedUnion, enum: zodEnum, literal, looseObject, number, record, strictObject, string, toJSONSchema, union };

export type Zod = typeof z;
