import { NewChat } from "@/components/chat/NewChat";
import { loadAppInfo, requireViewer } from "./_data";

export default async function NewConversationPage() {
  await requireViewer();
  return <NewChat app={loadAppInfo()} />;
}
