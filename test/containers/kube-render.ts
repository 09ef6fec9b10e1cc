/**
 * deploy/k8s/svc.yaml made playable by `podman kube play` (4.3) on one machine, with the NATS
 * cluster of deploy/k8s/dependencies.yaml, changing only what a single host without a cluster
 * forces, each change said here:
 *   - the other dependencies take the external-service switch: the ConfigMap points at the test
 *     stack's PostgreSQL, Redis, Temporal and LiveKit (as external-dependencies.yaml would name
 *     them);
 *   - the NATS StatefulSet's three pods are played as three Pods (podman knows no StatefulSet),
 *     each on loopback ports of its own: the routes name those ports instead of the pods'
 *     headless-Service names, and the server name is the pod's name written out (`$(POD_NAME)`);
 *     its volume claim becomes an emptyDir per pod, and the preStop lame-duck hook is left out
 *     (podman stops a pod with SIGTERM, which NATS also answers);
 *   - pods share the host's network (podman has no Services), so every listener gets a free
 *     loopback port of its own, and the probes use it in place of the named container ports;
 *   - podman 4.3 knows no Secret or Job: the Secret volume becomes a hostPath folder with the
 *     same files, and the migration Job's pod template is played as a Pod;
 *   - one replica per Deployment (replicas of one pod on one host network would share ports);
 *   - podman 4.3 makes one volume of same-named emptyDirs across pods, so each pod's gets its
 *     Deployment's name (in a cluster every pod has its own);
 *   - advertise URLs come from the pod IP downward API in a cluster; here, loopback.
 * Services, Ingresses and PodDisruptionBudgets have no podman counterpart and are left out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { repoRoot } from '../harness/stack.js';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: unknown;
}
interface Container {
  name: string;
  image: string;
  args: string[];
  env?: EnvVar[];
  lifecycle?: unknown;
  ports?: Array<{ name: string; containerPort: number }>;
  volumeMounts?: Array<{ name: string; mountPath: string }>;
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
}
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface PodSpec {
  hostNetwork?: boolean;
  restartPolicy?: string;
  containers: Container[];
  volumes?: Array<{ name: string; secret?: unknown; hostPath?: { path: string; type?: string }; emptyDir?: unknown }>;
}
interface Manifest {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  spec?: { replicas?: number; template: { metadata?: { labels?: Record<string, string> }; spec: PodSpec } };
}

export interface KubeTarget {
  image: string;
  /** The test stack's dependencies (external-service switch); the database URL is in the secrets. */
  redisUrl: string;
  temporalAddress: string;
  /** Loopback ports of the NATS StatefulSet's pods, one entry per replica. */
  nats: Array<{ client: number; cluster: number; monitor: number }>;
  /** The test stack's LiveKit; its API secret is among the Secret's files. */
  sfu: { url: string; publicUrl: string; apiKey: string };
  /** Folder holding the Secret's files. */
  secretsDir: string;
  /** Loopback ports: the gateway's HTTP, gRPC, RTMP, and one metrics listener per role. */
  ports: { http: number; grpc: number; rtmp: number; metrics: Record<'gateway' | 'actors' | 'worker' | 'transcoder', number> };
  /** Keeps this deployment's rooms and reviews apart from others on the shared test stack. */
  isolation: { natsSubjectPrefix: string; temporalTaskQueue: string };
  /**
   * Appended to every pod's name. Podman keeps pods by name on the machine, and a run that was
   * killed before its teardown leaves its pods behind; a fixed name would refuse the next run.
   */
  instance: string;
}

export interface Rendered {
  /** The NATS StatefulSet's pods, played before anything else. */
  nats: string;
  /** The migration Job's pod, played next. */
  migrate: string;
  /** The ConfigMap and the three Deployments. */
  pools: string;
}

/** A played pod's name: the manifest's name, the ordinal for a StatefulSet's replica, the run. */
export function podName(manifestName: string, ordinal: number | undefined, instance: string): string {
  return [manifestName, ...(ordinal === undefined ? [] : [String(ordinal)]), instance].join('-');
}

function readManifests(file: string): Manifest[] {
  const text = readFileSync(join(repoRoot(), 'deploy/k8s', file), 'utf8');
  return parseAllDocuments(text).map((doc) => doc.toJS() as Manifest);
}

/** The NATS StatefulSet of dependencies.yaml as one Pod per replica on loopback ports. */
function renderNats(target: KubeTarget): unknown[] {
  const statefulSet = readManifests('dependencies.yaml').find((m) => m.kind === 'StatefulSet' && m.metadata.name === 'nats');
  if (!statefulSet?.spec) throw new Error('deploy/k8s/dependencies.yaml: no NATS StatefulSet');
  if (statefulSet.spec.replicas !== target.nats.length) throw new Error(`the NATS StatefulSet has ${statefulSet.spec.replicas} replicas, the test plays ${target.nats.length}`);
  const routes = target.nats.map((node) => `nats://127.0.0.1:${node.cluster}`).join(',');
  return target.nats.map((node, k) => {
    const name = podName(statefulSet.metadata.name, k, target.instance);
    const spec = structuredClone(statefulSet.spec!.template.spec);
    const [container] = spec.containers;
    if (!container || spec.containers.length !== 1) throw new Error('the NATS pod should have one container');
    const rewritten: Record<string, string> = {
      '--server_name': name,
      '--http_port': String(node.monitor),
      '--cluster': `nats://127.0.0.1:${node.cluster}`,
      '--cluster_advertise': `127.0.0.1:${node.cluster}`,
      '--routes': routes,
    };
    const seen = new Set<string>();
    container.args = container.args.map((arg) => {
      const flag = arg.split('=')[0]!;
      if (!(flag in rewritten)) return arg;
      seen.add(flag);
      return `${flag}=${rewritten[flag]}`;
    });
    const missing = Object.keys(rewritten).filter((flag) => !seen.has(flag));
    if (missing.length > 0) throw new Error(`the NATS container's args lack ${missing.join(', ')}`);
    container.args.push('--addr=127.0.0.1', `--port=${node.client}`);
    delete container.env;
    delete container.ports;
    delete container.lifecycle;
    if (container.readinessProbe?.httpGet) container.readinessProbe.httpGet.port = node.monitor;
    spec.hostNetwork = true;
    spec.volumes = [{ name: `${name}-data`, emptyDir: {} }];
    for (const mount of container.volumeMounts ?? []) mount.name = `${name}-data`;
    delete (spec as { affinity?: unknown }).affinity;
    return { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: statefulSet.spec!.template.metadata?.labels }, spec };
  });
}

export function renderKube(target: KubeTarget): Rendered {
  const manifests = readManifests('svc.yaml');
  const byKind = (kind: string) => manifests.filter((m) => m.kind === kind);

  const [configMap] = byKind('ConfigMap');
  const [job] = byKind('Job');
  if (!configMap?.data || !job?.spec) throw new Error('deploy/k8s/svc.yaml: no ConfigMap or migration Job');
  const publicUrl = `http://127.0.0.1:${target.ports.http}`;
  Object.assign(configMap.data, {
    SVC_REDIS_URL: target.redisUrl,
    SVC_NATS_URL: target.nats.map((node) => `nats://127.0.0.1:${node.client}`).join(','),
    SVC_TEMPORAL_ADDRESS: target.temporalAddress,
    SVC_SFU_URL: target.sfu.url,
    SVC_SFU_PUBLIC_URL: target.sfu.publicUrl,
    SVC_SFU_API_KEY: target.sfu.apiKey,
    SVC_NATS_SUBJECT_PREFIX: target.isolation.natsSubjectPrefix,
    SVC_TEMPORAL_TASK_QUEUE: target.isolation.temporalTaskQueue,
    SVC_SERVER_PUBLIC_URL: publicUrl,
    SVC_WEBAUTHN_RP_ORIGIN: publicUrl,
    SVC_WEBAUTHN_RP_ID: '127.0.0.1',
    SVC_SERVER_CORS_ALLOWED_ORIGINS: publicUrl,
    SVC_SERVER_TRUSTED_PROXIES: '127.0.0.1/32',
  });
  // Per pod here (one host network); podman 4.3 lets envFrom override a container's env.
  delete configMap.data.SVC_METRICS_LISTEN;
  for (const key of ['SVC_DATABASE_URL_FILE', 'SVC_JWT_SECRET_FILE', 'SVC_SFU_API_SECRET_FILE']) {
    if (!configMap.data[key]?.startsWith('/run/secrets/svc/')) throw new Error(`deploy/k8s/svc.yaml: ${key} is not in the Secret volume`);
  }

  const hostPod = (name: string, spec: PodSpec, listeners: Record<string, string>, ports: Record<string, number>): PodSpec => {
    spec.hostNetwork = true;
    const renamed = new Map<string, string>();
    for (const volume of spec.volumes ?? []) {
      if (volume.secret) {
        delete volume.secret;
        volume.hostPath = { path: target.secretsDir, type: 'Directory' };
      }
      if (volume.emptyDir) {
        renamed.set(volume.name, `${name}-${volume.name}`);
        volume.name = `${name}-${volume.name}`;
      }
    }
    for (const container of spec.containers) {
      if (!container.image.startsWith('localhost/svc:')) throw new Error(`${name}: unexpected image ${container.image}`);
      container.image = target.image;
      for (const mount of container.volumeMounts ?? []) mount.name = renamed.get(mount.name) ?? mount.name;
      container.env = [
        ...(container.env ?? []).filter((env) => env.name !== 'POD_IP' && env.name !== 'SVC_SERVER_ADVERTISE_URL'),
        ...Object.entries(listeners).map(([envName, value]) => ({ name: envName, value })),
      ];
      // On the host's network a container port would be a port mapping, which podman refuses;
      // the probes name them, so they get the loopback number instead.
      for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) {
        if (typeof probe?.httpGet?.port !== 'string') continue;
        const moved = ports[probe.httpGet.port];
        if (moved === undefined) throw new Error(`${name}: no loopback port for the probe's port ${probe.httpGet.port}`);
        probe.httpGet.port = moved;
      }
      delete container.ports;
    }
    return spec;
  };

  const migrateName = podName(job.metadata.name, undefined, target.instance);
  const migratePod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: migrateName, labels: job.metadata.labels },
    spec: hostPod(migrateName, { ...job.spec.template.spec, restartPolicy: 'OnFailure' }, { SVC_DATABASE_URL_FILE: '/run/secrets/svc/database_url' }, {}),
  };

  const listenersOf = (role: 'gateway' | 'actors' | 'worker' | 'transcoder'): { env: Record<string, string>; ports: Record<string, number> } => {
    const metrics = target.ports.metrics[role];
    const env: Record<string, string> = { SVC_METRICS_LISTEN: `127.0.0.1:${metrics}` };
    const ports: Record<string, number> = { metrics };
    if (role === 'gateway') {
      Object.assign(env, {
        SVC_SERVER_HOST: '127.0.0.1',
        SVC_SERVER_PORT: String(target.ports.http),
        SVC_GRPC_HOST: '127.0.0.1',
        SVC_GRPC_PORT: String(target.ports.grpc),
        SVC_RTMP_HOST: '127.0.0.1',
        SVC_RTMP_PORT: String(target.ports.rtmp),
        SVC_SERVER_ADVERTISE_URL: publicUrl,
      });
      Object.assign(ports, { http: target.ports.http, grpc: target.ports.grpc, rtmp: target.ports.rtmp });
    }
    return { env, ports };
  };

  const deployments = byKind('Deployment').map((deployment) => {
    const role = deployment.metadata.labels?.['app.kubernetes.io/component'];
    if (role !== 'gateway' && role !== 'actors' && role !== 'worker' && role !== 'transcoder') throw new Error(`${deployment.metadata.name}: unknown component ${String(role)}`);
    if (!deployment.spec) throw new Error(`${deployment.metadata.name}: no spec`);
    const { env, ports } = listenersOf(role);
    deployment.spec.replicas = 1;
    deployment.metadata.name = podName(deployment.metadata.name, undefined, target.instance);
    hostPod(deployment.metadata.name, deployment.spec.template.spec, env, ports);
    return deployment;
  });
  if (deployments.length !== 4) throw new Error(`deploy/k8s/svc.yaml: expected 4 Deployments, found ${deployments.length}`);

  const asYaml = (docs: unknown[]) => docs.map((doc) => stringify(doc, { lineWidth: 0 })).join('---\n');
  if (configMap.data.SVC_NATS_REPLICAS !== String(target.nats.length)) throw new Error(`svc-config keeps ${configMap.data.SVC_NATS_REPLICAS} copies of each bucket on a NATS of ${target.nats.length}`);
  return { nats: asYaml(renderNats(target)), migrate: asYaml([migratePod]), pools: asYaml([configMap, ...deployments]) };
}
