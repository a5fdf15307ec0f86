import { ConfigError, createLogger, loadConfig } from '@onco/platform';
import { buildSystem } from './system';
import { seedDemo } from './seed';
import { seedDemoOrders } from './demo-orders';

/** The default single process: every API area, the workers and the built console on one port. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.LOG_LEVEL);
  const system = await buildSystem(config, { logger });
  if (config.DEMO_MODE) await seedDemo(system.ctx);
  await system.app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ port: config.PORT, services: config.SERVICES, workers: config.WORKERS }, 'oncotrf is up');
  // demo orders go through the API (and so the events, the lab and the TRF worker), once the server is up
  if (config.DEMO_MODE && config.SERVICES === 'all') {
    await seedDemoOrders(system.app, system.ctx, config).catch((err: Error) =>
      logger.warn({ err: err.message }, 'demo orders not seeded'),
    );
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // system.close() keeps within SHUTDOWN_TIMEOUT_MS; this is the last resort should it not
    const force = setTimeout(() => process.exit(1), config.SHUTDOWN_TIMEOUT_MS + 2_000).unref();
    await system.close();
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
