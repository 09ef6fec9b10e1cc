import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { repoRoot } from '../harness/stack.js';

// What an operator applies must hang together: the names the ConfigMap uses exist whichever
// dependency file was applied, Services select pods that exist, probes name ports that exist,
// and every file names the image this version builds. (Playing them is test/containers/.)

interface Container {
  image: string;
  ports?: Array<{ name: string }>;
  startupProbe?: { httpGet?: { port: string | number } };
  livenessProbe?: { httpGet?: { port: string | number } };
  readinessProbe?: { httpGet?: { port: string | number } };
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: {
    selector?: Record<string, string> | { matchLabels: Record<string, string> };
    template?: { metadata: { labels: Record<string, string> }; spec: { containers: Container[] } };
    type?: string;
  };
}

const root = repoRoot();
const manifests = (file: string) => parseAllDocuments(readFileSync(join(root, 'deploy/k8s', file), 'utf8')).map((doc) => doc.toJS() as Manifest);
const svc = manifests('svc.yaml');
const inCluster = manifests('dependencies.yaml');
const external = manifests('external-dependencies.yaml');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const workloads = (docs: Manifest[]) => docs.filter((doc) => doc.spec?.template);
const containers = (docs: Manifest[]) => workloads(docs).flatMap((doc) => doc.spec!.template!.spec.containers);

test('the dependencies svc-config names are Services of both dependency files', (t) => {
  const config = svc.find((doc) => doc.kind === 'ConfigMap')!.data!;
  const hosts = [config.SVC_REDIS_URL!, config.SVC_NATS_URL!, `tcp://${config.SVC_TEMPORAL_ADDRESS!}`].map((url) => new URL(url).hostname);
  // The database URL is a secret: deploy/make-secrets.sh writes it for the host `postgres`.
  const makeSecrets = readFileSync(join(root, 'deploy/make-secrets.sh'), 'utf8');
  t.regex(makeSecrets, /@postgres:5432\/svc/);
  for (const host of ['postgres', ...hosts]) {
    t.true(inCluster.some((doc) => doc.kind === 'Service' && doc.metadata.name === host), `dependencies.yaml has a Service ${host}`);
    t.true(external.some((doc) => doc.kind === 'Service' && doc.metadata.name === host && doc.spec?.type === 'ExternalName'), `external-dependencies.yaml has a Service ${host}`);
  }
});

test('every Service selects pods that exist, and every probe names a port of its container', (t) => {
  const all = [...svc, ...inCluster];
  for (const service of all.filter((doc) => doc.kind === 'Service')) {
    const selector = service.spec!.selector as Record<string, string>;
    const matches = workloads(all).some((doc) => Object.entries(selector).every(([key, value]) => doc.spec!.template!.metadata.labels[key] === value));
    t.true(matches, `Service ${service.metadata.name} selects a workload`);
  }
  for (const container of containers(all)) {
    for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) {
      const port = probe?.httpGet?.port;
      if (typeof port === 'string') t.true((container.ports ?? []).some((p) => p.name === port), `${container.image}: probe port ${port} is declared`);
    }
  }
});

test('the manifests and the Compose file run the image this version builds, and the same dependency images', (t) => {
  const image = `localhost/svc:${version}`;
  for (const container of containers(svc)) t.is(container.image, image);
  const composeText = readFileSync(join(root, 'deploy/compose.yaml'), 'utf8');
  t.true(composeText.includes(`\${SVC_IMAGE:-${image}}`), 'compose.yaml defaults to this version');
  t.true(readFileSync(join(root, 'deploy/make-secrets.sh'), 'utf8').includes(image), 'make-secrets.sh defaults to this version');
  const compose = parse(composeText, { merge: true }) as { services: Record<string, { image: string }> };
  const composeImages = new Set(Object.values(compose.services).map((service) => service.image).filter((name) => !name.includes('SVC_IMAGE')));
  t.deepEqual(new Set(containers(inCluster).map((container) => container.image)), composeImages);
});
