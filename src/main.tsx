/** The page's entry: starts the session services, then mounts the explorer. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./ui/app/App.tsx";
import { startSession } from "./ui/session/start.ts";
import "./ui/app/app.css";

const root = document.getElementById("root");
if (!root) throw new Error("#root element not found");
startSession();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
