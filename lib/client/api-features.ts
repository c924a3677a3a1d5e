"use client";
import { createContext, useContext } from "react";

export { NOT_OFFERED, setStandardApi } from "./api-flavor";

/** True in front of a LangGraph server (see api-flavor.ts); components read it from here. */
export const StandardApiContext = createContext(false);
export const useStandardApi = () => useContext(StandardApiContext);
