// The async boundary: Module Federation must negotiate the shared React singleton before any React code runs.
import('./bootstrap');
