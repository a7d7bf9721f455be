import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ReceivedMail {
  from: string;
  rcpt: string[];
  headerFrom: string;
  headerTo: string;
  subject: string;
  text: string | null;
  html: string | null;
}

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/smtp-sink.py');
// Debian's python3 (3.11) still has the smtpd module; a python3 earlier on PATH (pyenv, 3.12+) may not.
const PYTHON = '/usr/bin/python3';

/** A real SMTP server in a child process, and every message it has received so far. */
export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  static async start(): Promise<SmtpSink> {
    const child = spawn(PYTHON, ['-W', 'ignore', SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    child.stderr!.on('data', (chunk) => (errors += chunk));
    const lines = createInterface({ input: child.stdout! });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`smtp-sink.py exited with ${code}: ${errors}`)));
      lines.once('line', (line) => resolve(JSON.parse(line).port));
    });
    const sink = new SmtpSink(child, port);
    lines.on('line', (line) => sink.received.push(JSON.parse(line)));
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Wait for the first message to this address after the first `skip` of them, or fail after a few seconds. */
  async next(address: string, skip = 0, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.to(address)[skip];
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  to(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.rcpt.includes(address));
  }

  stop(): void {
    this.child.kill();
  }
}
