import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { connectApi } from './api/connect.js';
import { provideApi } from './api/instance.js';
import { createWorkbenchRouter } from './router.js';
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
  // The router is made after connectApi has taken ?token= off the address: hash history keeps
  // whatever precedes the # in every address it makes.
  createApp(App).use(createPinia()).use(createWorkbenchRouter()).mount('#app');
}

void start();
