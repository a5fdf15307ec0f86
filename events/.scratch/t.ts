import { z } from 'zod';
import { TestStatusDataV1 } from '../src/schemas';
console.log(JSON.stringify(z.toJSONSchema(TestStatusDataV1, { target: 'draft-7', io: 'input' }), null, 1).slice(0, 2500));
