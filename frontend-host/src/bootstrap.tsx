import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App';
import { applyTheme, storedTheme } from './shell/theme';
import './theme.css';

// Before the first render, so a light-theme user never sees a dark flash.
applyTheme(storedTheme());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
