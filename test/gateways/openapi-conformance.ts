/**
 * Checks real responses against the served OpenAPI document (`/api/openapi.json`): the route
 * must be documented, the status declared for it (or an error status answered with the Error
 * schema), and the body valid against the declared JSON Schema. The document is fetched and
 * its schemas compiled once per process (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses).
 * `test/gateways/bed.ts` runs every `call()` through it.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats: FormatsPlugin =
  ((formatsModule as unknown as { default?: FormatsPlugin }).default ?? (formatsModule as unknown as FormatsPlugin));

interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

interface Route {
  template: string;
  pattern: RegExp;
  literals: number;
}

const DOCUMENT_ID = 'svc-openapi';

export class OpenApiConformance {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: Document) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.routes = Object.keys(document.paths).map((template) => {
      const segments = template.split('/');
      const pattern = new RegExp(
        `^${segments.map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))).join('/')}$`,
      );
      return { template, pattern, literals: segments.filter((segment) => !segment.startsWith('{')).length };
    });
  }

  /** Undefined when the response conforms, else what is wrong. */
  check(method: string, url: string, status: number, text: string): string | undefined {
    const path = new URL(url, 'http://x').pathname;
    if (!path.startsWith('/api/') || path === '/api/openapi.json') return undefined;
    const verb = method.toLowerCase();
    const route = this.routes
      .filter((candidate) => candidate.pattern.test(path) && this.document.paths[candidate.template]?.[verb])
      .sort((a, b) => b.literals - a.literals)[0];
    const where = `${method.toUpperCase()} ${path} -> ${status}`;
    if (!route) {
      // The router's own answer to a path it does not have is a documented error body.
      if ((status === 404 || status === 405) && this.validate('#/components/schemas/Error', text) === undefined) return undefined;
      return `${where}: the route is not in /api/openapi.json`;
    }
    const operation = this.document.paths[route.template]![verb]!;
    const responses = operation.responses ?? {};
    let pointer: string;
    if (responses[String(status)]) {
      pointer = `#/paths/${encodeURIComponent(escape(route.template))}/${verb}/responses/${status}`;
      const content = responses[String(status)]!.content?.['application/json'];
      if (!content?.schema) {
        if (status === 204 && text !== '') return `${where}: 204 with a body`;
        return undefined;
      }
      pointer += '/content/application~1json/schema';
    } else if (status >= 400 && responses.default) {
      pointer = '#/components/schemas/Error';
    } else {
      return `${where}: status ${status} is not declared for ${operation.operationId ?? route.template} (declared: ${Object.keys(responses).join(', ')})`;
    }
    const problem = this.validate(pointer, text);
    return problem === undefined ? undefined : `${where} (${operation.operationId ?? route.template}): ${problem}`;
  }

  private validate(pointer: string, text: string): string | undefined {
    let validator = this.validators.get(pointer);
    if (!validator) {
      validator = this.ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      this.validators.set(pointer, validator);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `the body is not JSON: ${text.slice(0, 200)}`;
    }
    if (validator(body)) return undefined;
    const errors = (validator.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || '(body)'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
    return `the body does not match the documented schema: ${errors.join('; ')}; body: ${text.slice(0, 500)}`;
  }
}

function escape(template: string): string {
  return template.replace(/~/g, '~0').replace(/\//g, '~1');
}

let shared: Promise<OpenApiConformance> | undefined;

/** The checker for this process, built from the document the first bed serves. */
export function conformanceFor(baseUrl: string): Promise<OpenApiConformance> {
  shared ??= fetch(`${baseUrl}/api/openapi.json`)
    .then((response) => response.json() as Promise<Document>)
    .then((document) => new OpenApiConformance(document));
  return shared;
}
