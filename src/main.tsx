/** The page's entry: mounts the explorer. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./ui/app/App.tsx";
import "./ui/app/app.css";

const root = document.getElementById("root");
if (!root) throw new Error("#root element not found");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
