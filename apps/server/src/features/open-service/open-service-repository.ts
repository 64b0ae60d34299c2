// PLACEHOLDER (issue 20 foundation): replaced by the helper who owns this file.
import fp from 'fastify-plugin';

export default fp(async () => {}, { name: 'open-service-repository' });
