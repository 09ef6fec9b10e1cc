/**
 * What the API document says a client may send, as a client reads it: the request body and the
 * parameters of an operation, compiled with ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses) from
 * the document the server builds and serves. Tests pair these with the server's answer: what the
 * document admits must be accepted, what it refuses must be refused.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { buildOpenApiDocument } from '../../../gateways/http/openapi.js';

type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats: FormatsPlugin =
  ((formatsModule as unknown as { default?: FormatsPlugin }).default ?? (formatsModule as unknown as FormatsPlugin));

interface Parameter {
  name: string;
  in: string;
}
export interface Operation {
  operationId: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: unknown;
  responses: Record<string, { description: string }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

const DOCUMENT_ID = 'svc-openapi';

export class DocumentSchemas {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly document: Document;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: unknown = JSON.parse(JSON.stringify(buildOpenApiDocument()))) {
    this.document = document as Document;
    addFormats(this.ajv);
    this.ajv.addSchema(this.document, DOCUMENT_ID);
  }

  /** Whether the document admits `body` as the request body of the operation. */
  admitsBody(operationId: string, body: unknown): boolean {
    return this.validate(`${this.pointerOf(operationId)}/requestBody/content/application~1json/schema`, body);
  }

  /** Whether the document admits `value` for one parameter (path, query or header) of the operation. */
  admitsParameter(operationId: string, where: 'path' | 'query' | 'header', name: string, value: unknown): boolean {
    const [template, method] = this.find(operationId);
    const parameters = this.document.paths[template]![method]!.parameters ?? [];
    const index = parameters.findIndex((parameter) => parameter.in === where && parameter.name === name);
    if (index < 0) throw new Error(`${operationId} has no ${where} parameter ${name}`);
    return this.validate(`${this.pointerOf(operationId)}/parameters/${index}/schema`, value);
  }

  /** Every operation id of the document. */
  operationIds(): string[] {
    return Object.values(this.document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
  }

  /** Path template and method of an operation (`['/api/rooms', 'post']`). */
  find(operationId: string): [string, string] {
    for (const [template, item] of Object.entries(this.document.paths)) {
      for (const [method, operation] of Object.entries(item)) if (operation.operationId === operationId) return [template, method];
    }
    throw new Error(`no operation ${operationId} in the document`);
  }

  /** The operation's node, for what a test reads directly (its description, its body schema). */
  operation(operationId: string): Operation {
    const [template, method] = this.find(operationId);
    return this.document.paths[template]![method]!;
  }

  private pointerOf(operationId: string): string {
    const [template, method] = this.find(operationId);
    return `#/paths/${encodeURIComponent(template.replace(/~/g, '~0').replace(/\//g, '~1'))}/${method}`;
  }

  private validate(pointer: string, value: unknown): boolean {
    let validator = this.validators.get(pointer);
    if (!validator) {
      validator = this.ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      this.validators.set(pointer, validator);
    }
    return validator(value);
  }
}
