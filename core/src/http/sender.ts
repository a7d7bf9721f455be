import type { FastifyRequest } from 'fastify';
import { ValidationFailed, type Sender } from '@pipewright/sdk';

const SENDER = /^[a-zA-Z0-9_]([a-zA-Z0-9_.-]*[a-zA-Z0-9_])?$/;

function header(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * x-sender and x-sender-type (default "api"): the client the events of this request's changes name; and the
 * program it is (User-Agent, cut to 200 characters).
 */
export function readSender(request: FastifyRequest): Sender {
  const sender = header(request, 'x-sender');
  const senderType = header(request, 'x-sender-type') ?? 'api';
  const problems = [];
  if (sender !== null && !SENDER.test(sender))
    problems.push({
      loc: ['header', 'x-sender'],
      msg: 'must be letters, digits, underscore, with inner dots and hyphens',
      type: 'pattern',
    });
  if (senderType !== 'api' && !SENDER.test(senderType))
    problems.push({
      loc: ['header', 'x-sender-type'],
      msg: 'must be letters, digits, underscore, with inner dots and hyphens',
      type: 'pattern',
    });
  if (problems.length) throw new ValidationFailed(problems, 'Invalid sender headers');
  return { sender, senderType, client: header(request, 'user-agent')?.slice(0, 200) ?? null };
}
