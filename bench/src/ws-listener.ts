// A websocket client in a process of its own, so its receipt times are not delayed by the load generator's event
// loop: it subscribes to "bench." on BENCH_WS_URL, prints "ready", and once it has heard BENCH_EXPECT events (or
// after BENCH_WAIT_MS) prints one JSON line {id: receivedAt} with epoch milliseconds.
import WebSocket from 'ws';

const received: Record<string, number> = {};
const expected = Number(process.env.BENCH_EXPECT);
const socket = new WebSocket(process.env.BENCH_WS_URL!);
const finish = () => {
  socket.close();
  // Exit only once the (large) line is flushed: a pipe is written asynchronously.
  process.stdout.write(`${JSON.stringify(received)}\n`, () => process.exit(0));
};
socket.on('open', () =>
  socket.send(JSON.stringify({ topic: 'auth', token: process.env.BENCH_TOKEN, subscribe: ['bench.'] })),
);
socket.on('message', (data) => {
  const now = performance.timeOrigin + performance.now();
  const message = JSON.parse(data.toString());
  if (message.topic === 'server.started') {
    process.stdout.write('ready\n');
    setTimeout(finish, Number(process.env.BENCH_WAIT_MS ?? 60_000));
  }
  if (message.topic !== 'bench.tick') return;
  received[message.id] = now;
  if (Object.keys(received).length >= expected) finish();
});
