import Router from '@koa/router';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { packageVersion } from '../../observability/index.js';
import { ErrorBody } from '../../contracts/http/error-body.js';
import type { Endpoint } from '../../contracts/http/endpoint.js';
import { ENDPOINTS } from '../../contracts/http/index.js';
import { spellOutPatterns } from './openapi-patterns.js';
import type { HttpState } from './state.js';

/**
 * The OpenAPI 3.1 document of the public API, generated from the same endpoint declarations
 * the router validates with, and served at `/api/openapi.json`.
 */
export const OPENAPI_PATH = '/api/openapi.json';

export function buildOpenApiDocument(endpoints: readonly Endpoint[] = ENDPOINTS): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const endpoint of endpoints) {
    const item = (paths[endpoint.path] ??= {});
    item[endpoint.method] = operation(endpoint);
  }
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'svc',
      version: packageVersion(),
      description: 'Synchronized media rooms. Errors are {requestId, status, code, message}; codes are listed in docs/2026-11-23-api-conventions.md.',
    },
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  });
  spellOutPatterns(document);
  return document;
}

function operation(endpoint: Endpoint): ZodOpenApiOperationObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, spec] of Object.entries(endpoint.responses)) {
    responses[status as `2${string}`] = {
      description: spec.description,
      ...(spec.schema ? { content: { 'application/json': { schema: spec.schema } } } : {}),
      ...(spec.links ? { links: spec.links } : {}),
      ...(spec.headers ? { headers: Object.fromEntries(Object.entries(spec.headers).map(([name, h]) => [name, { description: h.description, schema: { type: 'string' } }])) } : {}),
    };
  }
  responses.default = {
    description: `An error. Codes this endpoint may answer besides invalid_argument and internal: ${endpoint.errors.join(', ') || 'none'}`,
    content: { 'application/json': { schema: ErrorBody } },
  };
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    tags: endpoint.tags,
    ...(endpoint.access === 'public' ? {} : { security: [{ bearer: [] }] }),
    ...(endpoint.params || endpoint.query || endpoint.headers
      ? {
          requestParams: {
            ...(endpoint.params ? { path: endpoint.params } : {}),
            ...(endpoint.query ? { query: endpoint.query } : {}),
            ...(endpoint.headers ? { header: endpoint.headers } : {}),
          },
        }
      : {}),
    ...(endpoint.body
      ? {
          requestBody: {
            required: !endpoint.body.safeParse(undefined).success,
            content: {
              'application/json': {
                schema: endpoint.body,
                ...(endpoint.bodyExamples ? { examples: Object.fromEntries(Object.entries(endpoint.bodyExamples).map(([name, value]) => [name, { value }])) } : {}),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

export function openApiRoutes(): Router<HttpState> {
  const router = new Router<HttpState>();
  let document: string | undefined;
  router.get(OPENAPI_PATH, (ctx) => {
    document ??= JSON.stringify(buildOpenApiDocument());
    ctx.type = 'application/json';
    ctx.body = document;
  });
  return router;
}
