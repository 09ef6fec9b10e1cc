import { render } from 'preact';
import { App } from './app.js';
import { restoreSession } from './state/session.js';
import './styles.css';

void restoreSession();
render(<App />, document.getElementById('app')!);
