export { dashscopeProvider } from './dashscope-provider';
