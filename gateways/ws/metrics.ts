import { Counter, Gauge, type Registry } from 'prom-client';

export interface RealtimeMetrics {
  refused: Counter<'status'>;
  slowConsumerCloses: Counter;
  accepted: Counter;
}

export interface RealtimeGauges {
  sockets: () => number;
  roomSubscriptions: () => number;
  notificationSubscriptions: () => number;
}

/** The realtime gateway's series, registered on the process registry served at `/metrics`. */
export function createRealtimeMetrics(registry: Registry, gauges: RealtimeGauges): RealtimeMetrics {
  new Gauge({
    name: 'realtime_sockets_open',
    help: 'Room WebSockets open on this gateway process.',
    registers: [registry],
    collect() {
      this.set(gauges.sockets());
    },
  });
  new Gauge({
    name: 'realtime_room_subscriptions',
    help: 'NATS subscriptions to room events held by this gateway process (one per room with sockets or streams here).',
    registers: [registry],
    collect() {
      this.set(gauges.roomSubscriptions());
    },
  });
  new Gauge({
    name: 'realtime_notification_subscriptions',
    help: 'NATS subscriptions to user notifications held by this gateway process (one per user with sockets here).',
    registers: [registry],
    collect() {
      this.set(gauges.notificationSubscriptions());
    },
  });
  return {
    accepted: new Counter({ name: 'realtime_upgrades_accepted_total', help: 'WebSocket upgrades accepted.', registers: [registry] }),
    refused: new Counter<'status'>({
      name: 'realtime_upgrades_refused_total',
      help: 'WebSocket upgrades refused before the upgrade, by HTTP status.',
      labelNames: ['status'],
      registers: [registry],
    }),
    slowConsumerCloses: new Counter({
      name: 'realtime_slow_consumer_closes_total',
      help: 'Sockets closed because their send buffer passed the limit (the client stopped reading).',
      registers: [registry],
    }),
  };
}
