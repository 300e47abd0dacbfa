export { simulatorProvider, createSimulatorProvider } from './simulator-provider';
// the video engine's tests read back what the simulator rendered
export { probeMedia } from './ffmpeg';
export { SimulatorMcpServer } from './simulator-mcp-server';
