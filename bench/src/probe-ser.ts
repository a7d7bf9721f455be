import build from 'fast-json-stringify';
import { OperationsResponse } from '../../plugins/entities/src/schemas.js';
import { newId } from '@pipewright/sdk';
const fjs = build(OperationsResponse as any);
const mk = () => ({ operations: Array.from({ length: 1000 }, () => ({ id: newId(), type: 'create', entityType: 'folder', entityId: newId(), success: true, status: 201, errorCode: null, detail: null })), success: true });
const data = Array.from({ length: 50 }, mk);
for (const [label, f] of [['fjs', fjs], ['JSON', JSON.stringify], ['fjs', fjs], ['JSON', JSON.stringify]] as const) {
  const t = process.hrtime.bigint(); let n = 0;
  for (let k = 0; k < 4; k++) for (const d of data) n += (f as any)(d).length;
  console.log(label, Number(process.hrtime.bigint() - t) / 1e6 / 200, 'ms per 1000-op response', n / 200);
}
