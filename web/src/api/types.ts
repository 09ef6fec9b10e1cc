/** The API's schemas by name (`components.schemas` of /api/openapi.json), for views and state. */
import type { components, paths } from './openapi.gen.js';

export type Schemas = components['schemas'];
export type { paths };
