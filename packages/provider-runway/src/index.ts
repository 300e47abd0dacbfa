export { runwayProvider } from './runway-provider';
