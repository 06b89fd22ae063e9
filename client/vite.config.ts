import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const gateway = process.env.DUET_GATEWAY ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    // Every built text file also as `.br` (brotli, highest quality) and `.gz` (gzip level 9): the
    // gateway sends these as they are instead of compressing each file again for each visitor.
    compression({ algorithms: ['brotliCompress', 'gzip'] }),
  ],
  server: {
    port: 5173,
    proxy: {
      '/api': gateway,
      '/socket.io': { target: gateway, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    // Maps are written for error tooling, but no `sourceMappingURL` comment points browsers at
    // them (the gateway does not serve `.map` files unless told to).
    sourcemap: 'hidden',
    // Lets the bundle budget test follow what the landing route loads.
    manifest: true,
    chunkSizeWarningLimit: 600,
  },
});
