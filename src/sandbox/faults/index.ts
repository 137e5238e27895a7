export { installSandboxFaults } from './fault-hooks.ts';
export {
  createFaultTable,
  FAULT_KINDS,
  type Fault,
  type FaultKind,
  type FaultTable,
} from './fault-table.ts';
