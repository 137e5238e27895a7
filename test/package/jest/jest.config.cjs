// Plain Jest, as a CommonJS project runs it: Node's environment, no transform.
module.exports = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.cjs'],
  transform: {},
};
