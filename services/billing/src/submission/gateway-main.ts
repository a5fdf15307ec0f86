import { parseArgs } from 'node:util';
import { loadConfig } from '@onco/platform';
import { startGatewayStandin } from './gateway-standin';

/**
 * The billing gateway stand-in as its own process (docs/billing-gateway.md):
 *   npx tsx services/billing/src/submission/gateway-main.ts --port 8090 [--host 127.0.0.1]
 *     [--dir .data/billing-gateway] [--slow-ms 30000] [--token <bearer token of GET /feed>]
 * Point BILLING_GATEWAY_URL at it (the default, http://127.0.0.1:8090, already does). Without --token it takes the
 * platform's BILLING_GATEWAY_TOKEN (its environment, else the development default), so both sides agree.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8090' },
    host: { type: 'string', default: '127.0.0.1' },
    dir: { type: 'string', default: '.data/billing-gateway' },
    'slow-ms': { type: 'string', default: '30000' },
    token: { type: 'string' },
  },
});

const gateway = await startGatewayStandin({
  port: Number(values.port),
  host: values.host,
  dir: values.dir!,
  slowMs: Number(values['slow-ms']),
  token: values.token ?? loadConfig().BILLING_GATEWAY_TOKEN,
  logger: true,
});
console.log(`billing gateway stand-in on ${gateway.url} (claims in ${values.dir})`);

const stop = async () => {
  await gateway.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
