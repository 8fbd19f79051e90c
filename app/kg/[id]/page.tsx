import { dehydrate, HydrationBoundary, QueryClient } from '@tanstack/react-query';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { DegreeTable } from '@/components/kg/DegreeTable';
import { EntityAbout } from '@/components/kg/EntityAbout';
import { EntityHeader } from '@/components/kg/EntityHeader';
import { KgSearch } from '@/components/kg/KgSearch';
import { NeighbourhoodPanel } from '@/components/kg/NeighbourhoodPanel';
import { filterFromSearchParams } from '@/components/kg/paths';
import { kgKeys, NEIGHBOUR_CAP, neighbourArgs } from '@/components/kg/queries';
import { Card } from '@/components/ui/Card';
import { NodeIdSchema } from '@/lib/api/kg-schemas';
import { neighbors, nodeProfile } from '@/lib/kg';
import { loadMetagraph } from '@/lib/kg/loaded-metagraph';

interface EntityPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** The decoded node id of the URL, or null when it cannot be a node id. */
async function nodeIdOf(params: EntityPageProps['params']): Promise<string | null> {
  const parsed = NodeIdSchema.safeParse((await params).id);
  return parsed.success ? parsed.data : null;
}

// One profile read per request, shared by generateMetadata and the page.
const loadProfile = cache((id: string) => nodeProfile(id));

export async function generateMetadata({ params }: EntityPageProps): Promise<Metadata> {
  const id = await nodeIdOf(params);
  const profile = id ? await loadProfile(id) : null;
  return { title: profile ? `${profile.node.name} · ${profile.node.kind}` : 'Entity not found' };
}

export default async function EntityPage({ params, searchParams }: EntityPageProps) {
  const id = await nodeIdOf(params);
  if (!id) notFound();
  const filter = filterFromSearchParams(await searchParams);

  // The neighbourhood the client would ask for first, fetched here so the graph has data on arrival.
  const queryClient = new QueryClient();
  const [profile, { kinds }] = await Promise.all([
    loadProfile(id),
    loadMetagraph(),
    queryClient.prefetchQuery({
      queryKey: kgKeys.neighbours(id, filter, NEIGHBOUR_CAP),
      queryFn: () => neighbors(id, neighbourArgs(filter)),
    }),
  ]);
  if (!profile) notFound();

  const { node } = profile;
  const focus = { id: node.id, kind: node.kind, name: node.name };

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
          <Link href="/kg" className="text-blue-800 hover:underline">
            Knowledge graph
          </Link>
          <span aria-hidden className="px-1.5">
            /
          </span>
          <span>{node.kind}</span>
        </nav>
        <KgSearch kinds={kinds ?? []} className="w-full max-w-xl" />
      </div>

      <EntityHeader node={node} />

      <div className="grid items-start gap-6 lg:grid-cols-12">
        <div className="space-y-6 lg:col-span-5">
          <EntityAbout description={node.description} profiles={profile.profiles} aliases={profile.aliases} />
          <Card
            title="Relations"
            headingId="relations-heading"
            actions={profile.degreeByMetaedge.length ? <span>{profile.degreeByMetaedge.length} types · choose one to filter</span> : null}
          >
            <DegreeTable rows={profile.degreeByMetaedge} totalDegree={node.degree} />
          </Card>
        </div>
        <div className="lg:col-span-7">
          <HydrationBoundary state={dehydrate(queryClient)}>
            <NeighbourhoodPanel focus={focus} degreeRows={profile.degreeByMetaedge} />
          </HydrationBoundary>
        </div>
      </div>
    </div>
  );
}
