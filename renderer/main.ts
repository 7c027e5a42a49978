import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { connectApi } from './api/connect.js';
import { provideApi } from './api/instance.js';
import './style.css';

async function start(): Promise<void> {
  try {
    provideApi(await connectApi());
  } catch (err) {
    // Shown as text: the message may quote a URL.
    const p = document.createElement('p');
    p.className = 'fatal';
    p.textContent = `Cannot reach crawlbench: ${(err as Error).message}. Open the URL printed by \`crawlbench serve\`.`;
    document.getElementById('app')!.replaceChildren(p);
    return;
  }
  createApp(App).use(createPinia()).mount('#app');
}

void start();
